/** Test helpers: build tar archives in memory (no files on disk, no external tools). */
import { gzipSync } from 'node:zlib';
import { analyzeFiles, DEFAULT_LIMITS, type AnalysisResult } from '../../../src/engine/index';

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

/** The threat findings of a result (capabilities left out). */
export function threatFindings(r: AnalysisResult) {
  return r.evidence.filter((f): f is typeof f & { threat_type: string } => 'threat_type' in f);
}

/** The most confident threat finding of one rule, if any. */
export function strongestOf(r: AnalysisResult, rule: string) {
  return threatFindings(r)
    .filter((f) => f.rule === rule)
    .sort((a, b) => b.confidence - a.confidence)[0];
}

export function threatsOf(r: AnalysisResult, minConfidence = 0.5): string[] {
  return r.agentic_threats.filter((t) => t.confidence >= minConfidence).map((t) => t.threat_type);
}

/** A tar header built field by field, for archives shaped like hostile or unusual tools write them. */
export interface RawHeader {
  name: string;
  size: number;
  /** Type flag: '0' file, 'x' pax, 'g' global pax, 'L' GNU long name, '1'/'2' links, '5' directory. */
  type?: string;
  /** 'ustar' writes POSIX `ustar\0` + `00`; 'gnu' writes the GNU `ustar  \0` magic. */
  magic?: 'ustar' | 'gnu';
  /** The 155-byte ustar prefix field (bytes 345..499). */
  prefix?: string;
  linkname?: string;
  /** Writes the size field in GNU base-256 encoding. */
  base256Size?: boolean;
  /** Writes a wrong checksum. */
  badChecksum?: boolean;
}

export function rawTarHeader(h: RawHeader): Buffer {
  const b = Buffer.alloc(512);
  b.write(h.name.slice(0, 100), 0, 'utf8');
  b.write(octal(0o644, 8), 100, 'latin1');
  b.write(octal(0, 8), 108, 'latin1');
  b.write(octal(0, 8), 116, 'latin1');
  if (h.base256Size) {
    b[124] = 0x80;
    let v = h.size;
    for (let i = 135; i > 124; i--) {
      b[i] = v % 256;
      v = Math.floor(v / 256);
    }
  } else b.write(octal(h.size, 12), 124, 'latin1');
  b.write(octal(0, 12), 136, 'latin1');
  b.write('        ', 148, 'latin1');
  b.write(h.type ?? '0', 156, 'latin1');
  if (h.linkname) b.write(h.linkname.slice(0, 100), 157, 'utf8');
  if (h.magic === 'gnu') b.write('ustar  \0', 257, 'latin1');
  else {
    b.write('ustar\0', 257, 'latin1');
    b.write('00', 263, 'latin1');
  }
  if (h.prefix) b.write(h.prefix.slice(0, 155), 345, 'utf8');
  let sum = 0;
  for (const x of b) sum += x;
  if (h.badChecksum) sum += 7;
  b.write(`${sum.toString(8).padStart(6, '0')}\0 `, 148, 'latin1');
  return b;
}

/** Pads data to whole 512-byte blocks. */
export function blocks(data: Buffer | string): Buffer {
  const d = Buffer.isBuffer(data) ? data : Buffer.from(data);
  const pad = (512 - (d.length % 512)) % 512;
  return pad ? Buffer.concat([d, Buffer.alloc(pad)]) : d;
}

/** The body of a pax extended header: `<len> <key>=<value>\n` records. */
export function paxBody(records: Record<string, string>): Buffer {
  const out: Buffer[] = [];
  for (const [k, v] of Object.entries(records)) {
    const rest = ` ${k}=${v}\n`;
    let len = Buffer.byteLength(rest) + 1;
    while (String(len).length + Buffer.byteLength(rest) !== len)
      len = String(len).length + Buffer.byteLength(rest);
    out.push(Buffer.from(`${len}${rest}`));
  }
  return Buffer.concat(out);
}

/** A whole entry (header + padded data) from raw header fields. */
export function rawEntry(h: Omit<RawHeader, 'size'> & { size?: number }, data: Buffer | string = ''): Buffer {
  const d = Buffer.isBuffer(data) ? data : Buffer.from(data);
  return Buffer.concat([rawTarHeader({ ...h, size: h.size ?? d.length }), blocks(d)]);
}
