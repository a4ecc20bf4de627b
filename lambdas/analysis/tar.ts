/**
 * Safe reading of an npm tarball: streaming gunzip and an in-memory tar parser.
 *
 * Nothing is written to disk and nothing is executed. Every limit in `AnalysisLimits` that
 * concerns the archive is enforced while bytes flow, so a hostile archive costs at most the
 * configured budget. Links are never followed; odd paths are reported and skipped.
 */
import { createGunzip } from 'node:zlib';
import { Readable } from 'node:stream';
import type { AnalysisLimits, PackageFile, SkippedFile } from './types';

export interface ArchiveContents {
  files: PackageFile[];
  skipped: SkippedFile[];
  limitsHit: string[];
  /** Problems with the archive itself (truncated, not gzip, hostile entries), as sentences. */
  problems: string[];
  compressedBytes: number;
  unpackedBytes: number;
}

/** Extensions whose content is kept in full (up to `maxTextFileBytes`) for text analysis. */
const TEXT_EXT =
  /\.(?:[cm]?jsx?|[cm]?tsx?|json|md|markdown|mdx|txt|ya?ml|sh|bash|zsh|ps1|bat|cmd|py|gyp|gypi|html?|toml|cfg|ini|rc|mdc)$/i;

export function isTextPath(p: string): boolean {
  const base = p.slice(p.lastIndexOf('/') + 1);
  if (TEXT_EXT.test(base)) return true;
  if (base.startsWith('.')) return true; // .cursorrules, .npmrc, ...
  return !base.includes('.'); // LICENSE, README, bin scripts without extension
}

/** Removes the leading folder npm puts in tarballs (`package/`), and reports unsafe paths. */
export function normalizeEntryPath(raw: string): { path: string; problem?: string } {
  const p = raw.replace(/\\/g, '/');
  if (p.startsWith('/') || /^[a-zA-Z]:\//.test(p)) return { path: p, problem: 'absolute path' };
  const parts = p.split('/').filter((s) => s !== '' && s !== '.');
  if (parts.includes('..')) return { path: p, problem: 'path traversal (..)' };
  if (parts.length > 1) parts.shift();
  return { path: parts.join('/') };
}

class LimitError extends Error {}

function parseOctal(buf: Buffer, start: number, len: number): number {
  const first = buf[start] ?? 0;
  if (first & 0x80) {
    // base-256 (GNU) encoding for big values
    let v = 0;
    for (let i = start + 1; i < start + len; i++) v = v * 256 + (buf[i] ?? 0);
    return v;
  }
  const s = buf
    .toString('latin1', start, start + len)
    .replace(/\0.*$/s, '')
    .trim();
  if (s === '') return 0;
  const v = parseInt(s, 8);
  return Number.isFinite(v) ? v : -1;
}

function cString(buf: Buffer, start: number, len: number): string {
  const end = buf.indexOf(0, start);
  const stop = end === -1 || end > start + len ? start + len : end;
  return buf.toString('utf8', start, stop);
}

function parsePax(data: Buffer): Record<string, string> {
  const out: Record<string, string> = {};
  let pos = 0;
  while (pos < data.length) {
    const sp = data.indexOf(0x20, pos);
    if (sp === -1) break;
    const len = parseInt(data.toString('latin1', pos, sp), 10);
    if (!Number.isFinite(len) || len <= 0) break;
    const rec = data.toString('utf8', sp + 1, pos + len - 1);
    const eq = rec.indexOf('=');
    if (eq > 0) out[rec.slice(0, eq)] = rec.slice(eq + 1);
    pos += len;
  }
  return out;
}

/** Incremental tar parser: feed it decompressed chunks, it keeps what the limits allow. */
class TarReader {
  readonly files: PackageFile[] = [];
  private readonly fileIndex = new Map<string, number>();
  readonly skipped: SkippedFile[] = [];
  readonly problems: string[] = [];
  readonly limitsHit: string[] = [];
  entries = 0;
  ended = false;
  private pending: Buffer[] = [];
  private pendingLen = 0;
  private state: 'header' | 'body' = 'header';
  private cur:
    | { path: string; size: number; remaining: number; padding: number; keep: number; chunks: Buffer[] }
    | undefined;
  private curKind: 'file' | 'pax' | 'longname' | 'skip' = 'skip';
  private nextPath: string | undefined;
  private paxPath: string | undefined;
  private zeroBlocks = 0;

  constructor(private readonly limits: AnalysisLimits) {}

  private take(n: number): Buffer {
    const all = this.pending.length === 1 ? this.pending[0]! : Buffer.concat(this.pending, this.pendingLen);
    const out = all.subarray(0, n);
    const rest = all.subarray(n);
    this.pending = rest.length ? [rest] : [];
    this.pendingLen = rest.length;
    return out;
  }

  push(chunk: Buffer): void {
    if (this.ended) return;
    this.pending.push(chunk);
    this.pendingLen += chunk.length;
    for (;;) {
      if (this.ended) return;
      if (this.state === 'header') {
        if (this.pendingLen < 512) return;
        this.onHeader(Buffer.from(this.take(512)));
      } else {
        const c = this.cur!;
        if (c.remaining > 0) {
          if (this.pendingLen === 0) return;
          const n = Math.min(c.remaining, this.pendingLen);
          const part = this.take(n);
          const room = c.keep - (c.size - c.remaining);
          if (room > 0) c.chunks.push(Buffer.from(part.subarray(0, Math.min(room, part.length))));
          c.remaining -= n;
          if (c.remaining > 0) return;
        }
        if (this.pendingLen < c.padding) return;
        this.take(c.padding);
        this.finishEntry();
        this.state = 'header';
      }
    }
  }

  private onHeader(h: Buffer): void {
    if (h.every((b) => b === 0)) {
      this.zeroBlocks++;
      if (this.zeroBlocks >= 2) this.ended = true;
      return;
    }
    this.zeroBlocks = 0;
    // checksum: sum of header bytes with the checksum field read as spaces
    let sum = 0;
    for (let i = 0; i < 512; i++) sum += i >= 148 && i < 156 ? 32 : h[i]!;
    const stored = parseOctal(h, 148, 8);
    if (stored !== sum) {
      this.problems.push('The archive contains a corrupt tar header (bad checksum); reading stopped there.');
      this.limitsHit.push('corrupt_tar_header');
      this.ended = true;
      return;
    }
    const size = parseOctal(h, 124, 12);
    if (size < 0) {
      this.problems.push('The archive contains a tar header with an invalid size; reading stopped there.');
      this.limitsHit.push('corrupt_tar_header');
      this.ended = true;
      return;
    }
    const type = String.fromCharCode(h[156] ?? 0);
    const magic = h.toString('latin1', 257, 262);
    let name = cString(h, 0, 100);
    if (magic === 'ustar') {
      const prefix = cString(h, 345, 155);
      if (prefix) name = `${prefix}/${name}`;
    }
    if (this.nextPath !== undefined) {
      name = this.nextPath;
      this.nextPath = undefined;
    }
    if (this.paxPath !== undefined) {
      name = this.paxPath;
      this.paxPath = undefined;
    }
    const padding = (512 - (size % 512)) % 512;
    let keep = 0;
    this.curKind = 'skip';
    if (type === 'x' || type === 'L') {
      this.curKind = type === 'x' ? 'pax' : 'longname';
      keep = Math.min(size, 64 * 1024);
    } else if (type === 'g' || type === 'K') {
      keep = 0;
    } else {
      this.entries++;
      if (this.entries > this.limits.maxEntries) {
        this.limitsHit.push('max_entries');
        this.problems.push(
          `The archive has more than ${this.limits.maxEntries} entries; the rest were not read.`,
        );
        this.ended = true;
        return;
      }
      const norm = normalizeEntryPath(name);
      if (type === '1' || type === '2') {
        const target = cString(h, 157, 100);
        const kind = type === '1' ? 'hardlink' : 'symlink';
        this.skipped.push({ path: norm.path, reason: `${kind} to ${target} (links are never followed)` });
        this.problems.push(
          `The archive contains a ${kind} ${norm.path} -> ${target}; npm packages do not need links.`,
        );
        if (!this.limitsHit.includes('link_entry')) this.limitsHit.push('link_entry');
      } else if (type === '0' || type === '\0' || type === '7') {
        if (norm.problem) {
          this.skipped.push({ path: name, reason: norm.problem });
          this.problems.push(
            `The archive entry "${name}" has an unsafe path (${norm.problem}); it was skipped.`,
          );
          const tag = norm.problem.startsWith('absolute') ? 'absolute_path' : 'path_traversal';
          if (!this.limitsHit.includes(tag)) this.limitsHit.push(tag);
        } else {
          this.curKind = 'file';
          const full = isTextPath(norm.path) ? this.limits.maxTextFileBytes : this.limits.headBytes;
          keep = Math.min(size, full);
          if (size > keep && isTextPath(norm.path)) {
            this.skipped.push({
              path: norm.path,
              reason: `larger than ${this.limits.maxTextFileBytes} bytes: only the first ${keep} bytes were checked`,
            });
            if (!this.limitsHit.includes('max_text_file_bytes')) this.limitsHit.push('max_text_file_bytes');
          }
          name = norm.path;
        }
      } else if (type !== '5') {
        this.skipped.push({ path: norm.path, reason: `special tar entry of type "${type}"` });
      }
    }
    this.cur = { path: name, size, remaining: size, padding, keep, chunks: [] };
    this.state = 'body';
  }

  private finishEntry(): void {
    const c = this.cur!;
    const data = c.chunks.length === 1 ? c.chunks[0]! : Buffer.concat(c.chunks);
    if (this.curKind === 'pax') {
      const pax = parsePax(data);
      if (pax.path) this.paxPath = pax.path;
    } else if (this.curKind === 'longname') {
      this.nextPath = data.toString('utf8').replace(/\0.*$/s, '');
    } else if (this.curKind === 'file') {
      const existing = this.fileIndex.get(c.path);
      const file: PackageFile = { path: c.path, size: c.size, data, truncated: data.length < c.size };
      if (existing !== undefined) this.files[existing] = file;
      else {
        this.fileIndex.set(c.path, this.files.length);
        this.files.push(file);
      }
    }
    this.cur = undefined;
  }
}

function isGzip(head: Buffer): boolean {
  return head.length >= 2 && head[0] === 0x1f && head[1] === 0x8b;
}

function looksLikeTar(head: Buffer): boolean {
  return head.length >= 262 && head.toString('latin1', 257, 262) === 'ustar';
}

/**
 * Reads a gzip-compressed tarball (or a bare tar) from a buffer or a stream, within the limits.
 * Never throws for hostile input: problems are returned as `problems` and `limitsHit`.
 */
export async function readTarball(
  input: Buffer | NodeJS.ReadableStream,
  limits: AnalysisLimits,
): Promise<ArchiveContents> {
  const reader = new TarReader(limits);
  const problems: string[] = [];
  const limitsHit: string[] = [];
  let compressed = 0;
  let unpacked = 0;
  const source: AsyncIterable<Buffer> = Buffer.isBuffer(input)
    ? Readable.from([input], { objectMode: false })
    : (input as AsyncIterable<Buffer>);

  let mode: 'unknown' | 'gzip' | 'tar' | 'reject' = 'unknown';
  const gunzip = createGunzip({ chunkSize: 64 * 1024 });
  let gunzipError: Error | undefined;
  let stop = false;

  const onPlain = (chunk: Buffer) => {
    unpacked += chunk.length;
    if (unpacked > limits.maxUnpackedBytes) {
      limitsHit.push('max_unpacked_bytes');
      problems.push(
        `The archive unpacks to more than ${limits.maxUnpackedBytes} bytes; the rest was not read.`,
      );
      throw new LimitError();
    }
    if (
      unpacked > limits.ratioGraceBytes &&
      unpacked / Math.max(compressed, 1) > limits.maxCompressionRatio
    ) {
      limitsHit.push('max_compression_ratio');
      problems.push(
        `The archive expands more than ${limits.maxCompressionRatio}x (a gzip bomb); reading stopped after ${unpacked} bytes.`,
      );
      throw new LimitError();
    }
    reader.push(chunk);
    if (reader.ended) throw new LimitError();
  };

  const gunzipDone = new Promise<void>((resolve) => {
    gunzip.on('data', (chunk: Buffer) => {
      if (stop) return;
      try {
        onPlain(chunk);
      } catch {
        stop = true;
        gunzip.pause();
        resolve();
      }
    });
    gunzip.on('error', (err) => {
      gunzipError = err;
      resolve();
    });
    gunzip.on('end', () => resolve());
  });

  let head = Buffer.alloc(0);
  try {
    for await (const raw of source) {
      const chunk = Buffer.isBuffer(raw) ? raw : Buffer.from(raw as Uint8Array);
      compressed += chunk.length;
      if (compressed > limits.maxCompressedBytes) {
        limitsHit.push('max_compressed_bytes');
        problems.push(`The upload is larger than ${limits.maxCompressedBytes} bytes; the rest was not read.`);
        break;
      }
      if (mode === 'unknown') {
        head = Buffer.concat([head, chunk]);
        if (head.length < 512 && !isGzip(head)) continue;
        if (isGzip(head)) mode = 'gzip';
        else if (looksLikeTar(head)) mode = 'tar';
        else {
          mode = 'reject';
          break;
        }
        const first = head;
        head = Buffer.alloc(0);
        if (mode === 'gzip') {
          if (!gunzip.write(first)) await waitDrain(gunzip, () => stop || !!gunzipError);
        } else onPlain(first);
      } else if (mode === 'gzip') {
        if (stop || gunzipError) break;
        if (!gunzip.write(chunk)) await waitDrain(gunzip, () => stop || !!gunzipError);
      } else if (mode === 'tar') {
        onPlain(chunk);
      }
      if (stop || gunzipError || reader.ended) break;
    }
  } catch (err) {
    if (!(err instanceof LimitError)) {
      problems.push(`The upload could not be read: ${(err as Error).message}.`);
      limitsHit.push('read_error');
    }
  }
  if (mode === 'unknown') {
    if (head.length && isGzip(head)) {
      mode = 'gzip';
      gunzip.write(head);
    } else if (head.length && looksLikeTar(head)) {
      mode = 'tar';
      try {
        onPlain(head);
      } catch {
        /* limits recorded */
      }
    } else mode = 'reject';
  }
  if (mode === 'gzip') {
    gunzip.end();
    await gunzipDone;
    gunzip.removeAllListeners('data');
    gunzip.destroy();
    if (gunzipError && !stop) {
      problems.push(
        `The archive is truncated or corrupt (${gunzipError.message}); only the entries before it were read.`,
      );
      limitsHit.push('truncated_archive');
    }
  }
  if (mode === 'reject') {
    problems.push('The upload is not a gzip-compressed tar archive; nothing was analysed.');
    limitsHit.push('not_gzip');
  }
  if (
    (mode === 'gzip' || mode === 'tar') &&
    !reader.ended &&
    !stop &&
    !limitsHit.includes('truncated_archive')
  ) {
    if (!limitsHit.includes('max_compressed_bytes')) {
      problems.push(
        'The tar archive ends without its end-of-archive marker (truncated); entries read so far were analysed.',
      );
      limitsHit.push('truncated_archive');
    }
  }
  for (const p of reader.problems) problems.push(p);
  for (const l of reader.limitsHit) if (!limitsHit.includes(l)) limitsHit.push(l);
  return {
    files: reader.files,
    skipped: reader.skipped,
    limitsHit,
    problems,
    compressedBytes: compressed,
    unpackedBytes: unpacked,
  };
}

function waitDrain(stream: NodeJS.WritableStream, abort: () => boolean): Promise<void> {
  return new Promise((resolve) => {
    const check = setInterval(() => {
      if (abort()) {
        clearInterval(check);
        resolve();
      }
    }, 20);
    stream.once('drain', () => {
      clearInterval(check);
      resolve();
    });
  });
}
