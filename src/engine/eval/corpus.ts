/**
 * The popular-package set: latest versions fetched with pacote into `.cache/benign/`, once. Used by
 * `npm run eval:detection` and `npm run bench:scan`; tests never need it. NPM_REGISTRY overrides
 * the registry pacote uses by default.
 *
 * The base list is data/benign/packages.txt. `loadBenignTarballs(root, limit, { popular: N })`
 * extends it with the most-downloaded names from the `npm-high-impact` package (a maintained list)
 * until N names are listed. `@types/*` packages are left out of the extension (declaration files
 * only, no code to analyse). Tarballs over 60 MB are skipped with a note (`<name>.skip`), and so
 * are versions whose manifest declares more than 400 MB unpacked.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { join } from 'node:path';

/** Tarballs larger than this are not kept (a note is written instead). */
export const MAX_TARBALL_BYTES = 60 * 1024 * 1024;
const MAX_UNPACKED_BYTES = 400 * 1024 * 1024;

/** The two pacote calls used here (pacote ships no type declarations). */
interface Pacote {
  manifest(
    spec: string,
    opts: Record<string, unknown>,
  ): Promise<{ version: string; dist?: { unpackedSize?: number } }>;
  tarball(spec: string, opts: Record<string, unknown>): Promise<Buffer>;
}

async function loadPacote(): Promise<Pacote> {
  const name = 'pacote';
  const mod = (await import(name)) as { default?: Pacote } & Partial<Pacote>;
  return mod.default ?? (mod as Pacote);
}

export interface BenignTarball {
  name: string;
  spec?: string;
  file?: string;
  error?: string;
  /** Why the package was left out on purpose (size caps). */
  skipped?: string;
}

async function fetchTarball(root: string, name: string): Promise<BenignTarball> {
  const pacote = await loadPacote();
  const opts: Record<string, unknown> = { cache: join(root, '.cache/pacote'), fullMetadata: false };
  if (process.env.NPM_REGISTRY) opts.registry = process.env.NPM_REGISTRY;
  const safe = name.replace(/\//g, '__');
  const cache = join(root, '.cache/benign');
  const indexFile = join(cache, `${safe}.version`);
  const skipFile = join(cache, `${safe}.skip`);
  try {
    if (existsSync(skipFile)) return { name, skipped: (await readFile(skipFile, 'utf8')).trim() };
    let version: string;
    if (existsSync(indexFile)) version = (await readFile(indexFile, 'utf8')).trim();
    else {
      const m = await pacote.manifest(`${name}@latest`, opts);
      version = m.version;
      const unpacked = m.dist?.unpackedSize ?? 0;
      if (unpacked > MAX_UNPACKED_BYTES) {
        const note = `${name}@${version}: ${Math.round(unpacked / 1048576)} MB unpacked (over the cap)`;
        await writeFile(skipFile, note);
        return { name, skipped: note };
      }
      await writeFile(indexFile, version);
    }
    const file = join(cache, `${safe}-${version}.tgz`);
    if (!existsSync(file)) {
      const buf = await pacote.tarball(`${name}@${version}`, opts);
      if (buf.length > MAX_TARBALL_BYTES) {
        const note = `${name}@${version}: tarball of ${Math.round(buf.length / 1048576)} MB (over the ${MAX_TARBALL_BYTES / 1048576} MB cap)`;
        await writeFile(skipFile, note);
        return { name, skipped: note };
      }
      await writeFile(file, buf);
    }
    return { name, spec: `${name}@${version}`, file };
  } catch (err) {
    return { name, error: String((err as Error).message ?? err).slice(0, 200) };
  }
}

async function pool<T, R>(items: T[], n: number, fn: (t: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let i = 0;
  await Promise.all(
    Array.from({ length: n }, async () => {
      while (i < items.length) {
        const k = i++;
        out[k] = await fn(items[k]!);
      }
    }),
  );
  return out;
}

/** The base list, then the most-downloaded names (no `@types/*`) until `target` names. */
export function popularNames(base: string[], topDownloads: string[], target: number): string[] {
  const names = [...new Set(base)];
  const seen = new Set(names);
  for (const n of topDownloads) {
    if (names.length >= target) break;
    if (seen.has(n) || n.startsWith('@types/')) continue;
    seen.add(n);
    names.push(n);
  }
  return names;
}

export async function benignNames(root: string, popular = 0): Promise<string[]> {
  const base = (await readFile(join(root, 'data/benign/packages.txt'), 'utf8'))
    .split('\n')
    .map((s) => s.trim())
    .filter((s) => s && !s.startsWith('#'));
  if (!popular) return base;
  const { npmTopDownloads } = (await import('npm-high-impact')) as { npmTopDownloads: string[] };
  return popularNames(base, npmTopDownloads, popular);
}

export async function loadBenignTarballs(
  root: string,
  limit?: number,
  options: { popular?: number; concurrency?: number } = {},
): Promise<BenignTarball[]> {
  await mkdir(join(root, '.cache/benign'), { recursive: true });
  const names = (await benignNames(root, options.popular)).slice(0, limit);
  return pool(names, options.concurrency ?? 6, (name) => fetchTarball(root, name));
}
