/**
 * Makes the offline download-count table (lambdas/shared/downloads/snapshot.ts) from the
 * `download-counts` package (a development dependency, pinned): run once per version of that
 * package; the result is cached under `.cache/download-counts/`. `npm start` and the scanner's
 * bundling call `ensureDownloadSnapshot()`; by hand:
 *
 *   npm run downloads:snapshot [-- --out FILE]
 *
 * The 95 MB JSON is read as text and its `"name":count` pairs are taken with a regular expression
 * instead of `JSON.parse`, which would build a 3.8-million-key object (≈ 500 MB of heap).
 */
import { existsSync } from 'node:fs';
import { copyFile, mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { encodeSnapshot, SNAPSHOT_FORMAT } from '../lambdas/shared/downloads/snapshot';

const repoRoot = fileURLToPath(new URL('..', import.meta.url));
const require = createRequire(import.meta.url);

/** Where the snapshot of the installed `download-counts` version is kept. */
export function snapshotCachePath(version: string): string {
  return join(repoRoot, '.cache', 'download-counts', `download-counts-${version}.v${SNAPSHOT_FORMAT}.pkdl`);
}

interface SourcePackage {
  readonly version: string;
  readonly countsFile: string;
}

function sourcePackage(): SourcePackage {
  const manifest = require.resolve('download-counts/package.json');
  const { version } = JSON.parse(require('node:fs').readFileSync(manifest, 'utf8') as string) as {
    version: string;
  };
  return { version, countsFile: join(dirname(manifest), 'counts.json') };
}

/**
 * The day the counts were taken: versions are `2.YYYYMMDD.n`, published after the counted month
 * ends on that day.
 */
export function asOfFromVersion(version: string): string | undefined {
  const match = /^\d+\.(\d{4})(\d{2})(\d{2})\./.exec(version);
  return match ? `${match[1]}-${match[2]}-${match[3]}` : undefined;
}

/** `"name":count` pairs of the package's JSON text (keys JSON-unescaped). */
export function* countPairs(text: string): Generator<[string, number]> {
  const pair = /"((?:[^"\\]|\\.)*)"\s*:\s*(\d+)/g;
  for (const match of text.matchAll(pair)) {
    const raw = match[1]!;
    const name = raw.includes('\\') ? (JSON.parse(`"${raw}"`) as string) : raw;
    yield [name, Number(match[2])];
  }
}

export interface SnapshotBuild {
  readonly file: string;
  readonly built: boolean;
  readonly seconds: number;
  readonly entries?: number;
}

/**
 * Returns the cached snapshot of the installed `download-counts`, building it first when missing;
 * with `copyTo`, also copies it there (the scanner's bundle).
 */
export async function ensureDownloadSnapshot(copyTo?: string): Promise<SnapshotBuild> {
  const started = Date.now();
  const source = sourcePackage();
  const file = snapshotCachePath(source.version);
  let built = false;
  let entries: number | undefined;
  if (!existsSync(file)) {
    const text = await readFile(source.countsFile, 'utf8');
    const asOf = asOfFromVersion(source.version);
    if (asOf === undefined) throw new Error(`download-counts ${source.version}: no date in the version`);
    const pairs = [...countPairs(text)];
    entries = pairs.length;
    const encoded = encodeSnapshot(pairs, {
      source: 'download-counts',
      version: source.version,
      as_of: asOf,
      // The counted month: the package's counts are for the calendar month before `as_of`.
      period_days: daysOfPreviousMonth(asOf),
    });
    await mkdir(dirname(file), { recursive: true });
    await writeFile(`${file}.tmp`, encoded);
    await rename(`${file}.tmp`, file);
    built = true;
  }
  if (copyTo !== undefined) {
    await mkdir(dirname(copyTo), { recursive: true });
    await copyFile(file, copyTo);
  }
  return {
    file,
    built,
    seconds: (Date.now() - started) / 1000,
    ...(entries !== undefined ? { entries } : {}),
  };
}

function daysOfPreviousMonth(asOf: string): number {
  const [year, month] = asOf.split('-').map(Number) as [number, number];
  // Day 0 of month M (1-based) is the last day of month M-1.
  return new Date(Date.UTC(year, month - 1, 0)).getUTCDate();
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  const outIndex = process.argv.indexOf('--out');
  const out = outIndex >= 0 ? process.argv[outIndex + 1] : undefined;
  ensureDownloadSnapshot(out).then(
    (result) =>
      console.log(
        `${result.built ? 'built' : 'cached'} ${result.file}${result.entries !== undefined ? ` (${result.entries} packages)` : ''} ` +
          `in ${result.seconds.toFixed(1)} s${out !== undefined ? `; copied to ${out}` : ''}`,
      ),
    (error: unknown) => {
      console.error(error);
      process.exitCode = 1;
    },
  );
}
