/**
 * OSV records (schema 1.x, https://ossf.github.io/osv-schema/) as a tolerant zod schema: the fields
 * this service reads are checked, every other field is kept as it is (`.loose()`), so a newer
 * schema version with extra fields still imports. Imports no AWS SDK.
 */
import * as z from 'zod';

/** The ecosystem name OSV uses for the npm registry (case-sensitive in the schema). */
export const NPM_ECOSYSTEM = 'npm';

const looseObject = z.record(z.string(), z.unknown());

export const OsvEvent = z
  .object({
    introduced: z.string().optional(),
    fixed: z.string().optional(),
    last_affected: z.string().optional(),
    limit: z.string().optional(),
  })
  .loose();
export type OsvEvent = z.infer<typeof OsvEvent>;

export const OsvRange = z
  .object({
    type: z.string(),
    repo: z.string().optional(),
    events: z.array(OsvEvent),
    database_specific: looseObject.optional(),
  })
  .loose();
export type OsvRange = z.infer<typeof OsvRange>;

export const OsvSeverity = z.object({ type: z.string(), score: z.string() }).loose();
export type OsvSeverity = z.infer<typeof OsvSeverity>;

export const OsvAffected = z
  .object({
    package: z
      .object({ ecosystem: z.string(), name: z.string().min(1), purl: z.string().optional() })
      .loose()
      .optional(),
    severity: z.array(OsvSeverity).optional(),
    ranges: z.array(OsvRange).optional(),
    versions: z.array(z.string()).optional(),
    ecosystem_specific: looseObject.optional(),
    database_specific: looseObject.optional(),
  })
  .loose();
export type OsvAffected = z.infer<typeof OsvAffected>;

export const OsvReference = z.object({ type: z.string(), url: z.string() }).loose();

export const OsvRecord = z
  .object({
    schema_version: z.string().optional(),
    id: z.string().min(1).max(200),
    modified: z.iso.datetime({ offset: true }),
    published: z.string().optional(),
    withdrawn: z.string().optional(),
    aliases: z.array(z.string()).optional(),
    related: z.array(z.string()).optional(),
    summary: z.string().optional(),
    details: z.string().optional(),
    severity: z.array(OsvSeverity).optional(),
    affected: z.array(OsvAffected).optional(),
    references: z.array(OsvReference).optional(),
    database_specific: looseObject.optional(),
  })
  .loose();
export type OsvRecord = z.infer<typeof OsvRecord>;

/** Epoch milliseconds of `modified`: timestamps differ in precision, so compare numbers, not strings. */
export function modifiedMillis(record: Pick<OsvRecord, 'modified'>): number {
  return Date.parse(record.modified);
}

/** npm package names this record affects (deduplicated, in record order). */
export function npmPackageNames(record: OsvRecord): string[] {
  const names = new Set<string>();
  for (const affected of record.affected ?? []) {
    if (affected.package?.ecosystem === NPM_ECOSYSTEM) names.add(affected.package.name);
  }
  return [...names];
}

/** True for reports of malicious packages (OSV `MAL-` ids, as an id or an alias). */
export function isMalicious(record: OsvRecord): boolean {
  return record.id.startsWith('MAL-') || (record.aliases ?? []).some((alias) => alias.startsWith('MAL-'));
}

/** Parses JSON text into a record; throws an Error naming the first problem. */
export function parseOsvRecord(text: string): OsvRecord {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new Error(`not JSON: ${(error as Error).message}`, { cause: error });
  }
  const parsed = OsvRecord.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new Error(
      `not an OSV record: ${issue ? `${issue.path.join('.') || '(root)'}: ${issue.message}` : ''}`,
    );
  }
  return parsed.data;
}
