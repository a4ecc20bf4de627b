/**
 * Fetches the real-package corpus (data/benign/packages.txt, latest versions) with pacote into
 * `.cache/benign/`, once. Used by `npm run eval:detection` and `npm run bench:scan`; tests never
 * need it. NPM_REGISTRY overrides the registry pacote uses by default.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { join } from 'node:path';

/** The two pacote calls used here (pacote ships no type declarations). */
interface Pacote {
  manifest(spec: string, opts: Record<string, unknown>): Promise<{ version: string }>;
  tarball(spec: string, opts: Record<string, unknown>): Promise<Buffer>;
}

async function loadPacote(): Promise<Pacote> {
  const name = 'pacote';
  const mod = (await import(name)) as { default?: Pacote } & Partial<Pacote>;
  return mod.default ?? (mod as Pacote);
}

async function fetchTarball(
  root: string,
  name: string,
): Promise<{ spec: string; file: string } | { error: string }> {
  const pacote = await loadPacote();
  const opts: Record<string, unknown> = { cache: join(root, '.cache/pacote'), fullMetadata: false };
  if (process.env.NPM_REGISTRY) opts.registry = process.env.NPM_REGISTRY;
  const safe = name.replace(/\//g, '__');
  const cache = join(root, '.cache/benign');
  const indexFile = join(cache, `${safe}.version`);
  try {
    let version: string;
    if (existsSync(indexFile)) version = (await readFile(indexFile, 'utf8')).trim();
    else {
      const m = await pacote.manifest(`${name}@latest`, opts);
      version = m.version;
      await writeFile(indexFile, version);
    }
    const file = join(cache, `${safe}-${version}.tgz`);
    if (!existsSync(file)) {
      const buf = await pacote.tarball(`${name}@${version}`, opts);
      await writeFile(file, buf);
    }
    return { spec: `${name}@${version}`, file };
  } catch (err) {
    return { error: String((err as Error).message ?? err).slice(0, 200) };
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

export async function loadBenignTarballs(
  root: string,
  limit?: number,
): Promise<{ name: string; spec?: string; file?: string; error?: string }[]> {
  await mkdir(join(root, '.cache/benign'), { recursive: true });
  const names = (await readFile(join(root, 'data/benign/packages.txt'), 'utf8'))
    .split('\n')
    .map((s) => s.trim())
    .filter((s) => s && !s.startsWith('#'))
    .slice(0, limit);
  return pool(names, 6, async (name) => {
    const r = await fetchTarball(root, name);
    return 'error' in r ? { name, error: r.error } : { name, ...r };
  });
}
