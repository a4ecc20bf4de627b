/** Test helpers: build tar archives in memory (no files on disk, no external tools). */
import { gzipSync } from 'node:zlib';
import { analyzeFiles, DEFAULT_LIMITS, type AnalysisResult } from '../../../lambdas/analysis/index';

export interface TarEntry {
  name: string;
  data?: Buffer | string;
  /** '0' file, '1' hard link, '2' symlink, '5' directory. */
  type?: string;
  linkname?: string;
  /** Declared size, when it must differ from the data (truncation tests). */
  size?: number;
}

function octal(n: number, len: number): string {
  return `${n.toString(8).padStart(len - 1, '0')}\0`;
}

export function tarHeader(e: TarEntry, size: number): Buffer {
  const h = Buffer.alloc(512);
  h.write(e.name.slice(0, 100), 0, 'utf8');
  h.write(octal(0o644, 8), 100, 'latin1');
  h.write(octal(0, 8), 108, 'latin1');
  h.write(octal(0, 8), 116, 'latin1');
  h.write(octal(size, 12), 124, 'latin1');
  h.write(octal(0, 12), 136, 'latin1');
  h.write('        ', 148, 'latin1');
  h.write(e.type ?? '0', 156, 'latin1');
  if (e.linkname) h.write(e.linkname.slice(0, 100), 157, 'utf8');
  h.write('ustar\0', 257, 'latin1');
  h.write('00', 263, 'latin1');
  let sum = 0;
  for (const b of h) sum += b;
  h.write(`${sum.toString(8).padStart(6, '0')}\0 `, 148, 'latin1');
  return h;
}

export function tar(entries: TarEntry[], { end = true } = {}): Buffer {
  const parts: Buffer[] = [];
  for (const e of entries) {
    const data =
      e.data === undefined ? Buffer.alloc(0) : Buffer.isBuffer(e.data) ? e.data : Buffer.from(e.data);
    parts.push(tarHeader(e, e.size ?? data.length));
    parts.push(data);
    const pad = (512 - (data.length % 512)) % 512;
    if (pad) parts.push(Buffer.alloc(pad));
  }
  if (end) parts.push(Buffer.alloc(1024));
  return Buffer.concat(parts);
}

export function tgz(entries: TarEntry[]): Buffer {
  return gzipSync(tar(entries));
}

export function pkgJson(extra: Record<string, unknown> = {}): TarEntry {
  return {
    name: 'package/package.json',
    data: JSON.stringify({ name: 'fixture', version: '1.0.0', ...extra }, null, 2),
  };
}

/** Analyses in-memory files as a package (paths relative to the package root). */
export function analyzeSource(files: Record<string, string | Buffer>): AnalysisResult {
  const list = Object.entries(files).map(([path, content]) => {
    const data = Buffer.isBuffer(content) ? content : Buffer.from(content);
    return { path, data, size: data.length, truncated: false };
  });
  return analyzeFiles(list, { ...DEFAULT_LIMITS });
}

export function threatsOf(r: AnalysisResult, minConfidence = 0.5): string[] {
  return r.agentic_threats.filter((t) => t.confidence >= minConfidence).map((t) => t.threat_type);
}
