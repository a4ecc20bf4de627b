/**
 * First start of `npm start`: the advisory data in the repository goes into the local advisories
 * table, and the README's example packages plus the 100 most-downloaded packages (the maintained
 * `npm-high-impact` list) are queued for scanning, so list, search and the CLI show real data.
 */
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { advisoryStoreFromEnv } from '../lambdas/advisories/advisory-store';
import { importOsv, type ImportReport } from '../lambdas/advisories/importer';
import { readOsvFolder } from '../lambdas/advisories/sources';
import { refreshAfterAdvisoryChange, type RefreshReport } from '../lambdas/scanner/refresh';
import { packageStoreFromEnv } from '../lambdas/shared/store/clients';

/** The OSV records kept in the repository. */
export const ADVISORY_FOLDER = fileURLToPath(new URL('../data/advisories/osv-npm/', import.meta.url));
export const SEED_LIST_FILE = fileURLToPath(new URL('./seed-packages.txt', import.meta.url));

/** Top packages scanned after the list when LOCAL_SEED_TOP is not set. */
export const DEFAULT_SEED_TOP = 100;

/**
 * The seed: LOCAL_SEED_PACKAGES (comma-separated) when set; otherwise the names of
 * `seed-packages.txt` followed by the first LOCAL_SEED_TOP (100) names of npm-high-impact's
 * most-downloaded list, each name once.
 */
export async function seedPackageNames(
  env: NodeJS.ProcessEnv = process.env,
  file: string = SEED_LIST_FILE,
): Promise<string[]> {
  const clean = (lines: string[]) =>
    lines.map((line) => line.replace(/#.*$/, '').trim()).filter((line) => line !== '');
  const override = env.LOCAL_SEED_PACKAGES;
  if (override !== undefined) return clean(override.split(','));
  const top =
    env.LOCAL_SEED_TOP === undefined || env.LOCAL_SEED_TOP === ''
      ? DEFAULT_SEED_TOP
      : Number(env.LOCAL_SEED_TOP);
  if (!Number.isInteger(top) || top < 0)
    throw new Error(`LOCAL_SEED_TOP must be a whole number, got '${env.LOCAL_SEED_TOP}'`);
  const { npmTopDownloads } = (await import('npm-high-impact')) as { npmTopDownloads: string[] };
  return [
    ...new Set([...clean((await readFile(file, 'utf8')).split('\n')), ...npmTopDownloads.slice(0, top)]),
  ];
}

/**
 * Logs the seed's progress until every job has ended (or `stop()` says so): a line when the
 * count of finished jobs moves, at most every `everyMs`.
 */
export async function watchSeed(
  apiUrl: string,
  jobIds: readonly string[],
  log: (line: string) => void,
  opts: { everyMs?: number; stop?: () => boolean } = {},
): Promise<{ completed: number; failed: number; seconds: number }> {
  const started = Date.now();
  const open = new Set(jobIds);
  let completed = 0;
  let failed = 0;
  let shown = -1;
  while (open.size > 0 && !opts.stop?.()) {
    await new Promise((resolve) => setTimeout(resolve, opts.everyMs ?? 10_000));
    for (const id of [...open]) {
      try {
        const response = await fetch(`${apiUrl}/v1/scan/${id}`);
        const body = (await response.json()) as { status?: string };
        if (body.status === 'completed') completed++;
        else if (body.status === 'failed') failed++;
        else continue;
        open.delete(id);
      } catch {
        // The API is stopping or busy: try again on the next round.
      }
    }
    if (completed + failed !== shown) {
      shown = completed + failed;
      log(
        `seed: ${shown}/${jobIds.length} scans done (${failed} failed) after ${Math.round((Date.now() - started) / 1000)} s`,
      );
    }
  }
  return { completed, failed, seconds: (Date.now() - started) / 1000 };
}

export interface AdvisoryImportResult {
  readonly report: ImportReport;
  readonly refresh: RefreshReport;
  readonly seconds: number;
}

/**
 * Imports the OSV folder into the advisories table, then refreshes the stored results of the
 * packages whose advisories changed (`refreshAfterAdvisoryChange`).
 */
export async function importLocalAdvisories(folder: string = ADVISORY_FOLDER): Promise<AdvisoryImportResult> {
  const started = Date.now();
  const advisories = advisoryStoreFromEnv();
  const report = await importOsv(readOsvFolder(folder), advisories);
  if (report.error !== undefined) throw new Error(`Advisory import from ${folder} stopped: ${report.error}`);
  const refresh = await refreshAfterAdvisoryChange(report.changedPackages, {
    packages: packageStoreFromEnv(),
    advisories,
  });
  return { report, refresh, seconds: (Date.now() - started) / 1000 };
}

/** Asks the API for a scan of each name (latest version); returns the job ids, in order. */
export async function requestScans(
  apiUrl: string,
  names: readonly string[],
): Promise<Array<{ name: string; jobId?: string; error?: string }>> {
  const out: Array<{ name: string; jobId?: string; error?: string }> = [];
  for (const name of names) {
    try {
      const response = await fetch(`${apiUrl}/v1/scan`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ name }),
      });
      const body = (await response.json()) as { job_id?: string; error?: string };
      out.push(
        response.status === 202 && body.job_id
          ? { name, jobId: body.job_id }
          : { name, error: body.error ?? `HTTP ${response.status}` },
      );
    } catch (error) {
      out.push({ name, error: (error as Error).message });
    }
  }
  return out;
}
