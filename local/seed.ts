/**
 * First start of `npm start`: the advisory data in the repository goes into the local advisories
 * table, and a small default set of popular packages is queued for scanning, so a newcomer's
 * list is not empty.
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

/** Names of `seed-packages.txt` (or of LOCAL_SEED_PACKAGES, comma-separated, when set). */
export async function seedPackageNames(
  env: NodeJS.ProcessEnv = process.env,
  file: string = SEED_LIST_FILE,
): Promise<string[]> {
  const override = env.LOCAL_SEED_PACKAGES;
  const lines = override !== undefined ? override.split(',') : (await readFile(file, 'utf8')).split('\n');
  return lines.map((line) => line.replace(/#.*$/, '').trim()).filter((line) => line !== '');
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
