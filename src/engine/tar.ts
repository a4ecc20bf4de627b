/**
 * Safe reading of an npm tarball, entry by entry exactly as npm splits it: streaming gunzip and
 * node-tar's streaming `Parser` (the parser npm's extractor uses), with in-memory capture.
 *
 * Nothing is written to disk and nothing is executed. Every limit in `AnalysisLimits` that
 * concerns the archive is enforced while bytes flow, so a hostile archive costs at most the
 * configured budget. Entry paths are the ones npm writes (pacote extracts with `strip: 1`): `..`
 * entries are skipped, absolute ones are made relative as npm does, links are reported and never
 * followed, only regular files are kept.
 *
 * Limits never hide what npm would run: after the entry-count or compression-ratio limit is hit,
 * reading goes on (headers only, file data skipped, bounded by the unpacked-size cap and a time
 * budget) so that `package.json` and the small files lifecycle scripts run are still captured.
 */
import { createGunzip } from 'node:zlib';
import { Readable } from 'node:stream';
import { posix, win32 } from 'node:path';
import { Parser, type ReadEntry } from 'tar';
import type { AnalysisLimits, PackageFile, SkippedFile } from './types';

export interface ArchiveContents {
  files: PackageFile[];
  skipped: SkippedFile[];
  limitsHit: string[];
  /** Problems with the archive itself (truncated, not gzip, hostile entries), as sentences. */
  problems: string[];
  compressedBytes: number;
  unpackedBytes: number;
  /** True when limits stopped or thinned the reading: some entries were not read in full. */
  incomplete: boolean;
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

/** node-tar's default for the deepest path it extracts (`maxDepth`). */
const MAX_PATH_DEPTH = 1024;
/** After a limit hit, files up to this size are still kept (lifecycle scripts, package.json). */
const DEGRADED_FILE_BYTES = 1024 * 1024;
/** After a limit hit, at most this many bytes in total are still kept. */
const DEGRADED_TOTAL_BYTES = 16 * 1024 * 1024;
/** After a limit hit, at most this many more files are kept. */
const DEGRADED_MAX_FILES = 2_000;
/** Files left out after a limit hit that are named in `skipped` (the rest are counted). */
const MAX_SKIP_RECORDS = 200;

/** Removes a leading root (`/`, `C:`, `//host/share/`) as many times as it occurs. */
function stripRoot(p: string): { root: string; rest: string } {
  let root = '';
  let rest = p;
  for (;;) {
    const parsedRoot = win32.parse(rest).root;
    if (!win32.isAbsolute(rest) && !parsedRoot) break;
    const r = rest.startsWith('/') && !rest.startsWith('//?/') ? '/' : parsedRoot;
    if (!r) break;
    root += r;
    rest = rest.slice(r.length);
  }
  return { root, rest };
}

/**
 * The path npm writes an entry to, relative to the package folder (pacote extracts with
 * `strip: 1`), or why npm skips the entry. Backslashes count as separators, as npm on Windows
 * reads them. `problem` set with a `path` means the entry is kept but hostile (absolute path).
 */
export function normalizeEntryPath(raw: string): { path: string; problem?: string; skip?: boolean } {
  const slashed = raw.replace(/\\/g, '/');
  const rawAbsolute = stripRoot(slashed).root !== '';
  const parts = slashed.split('/');
  parts.splice(0, 1); // strip: 1 drops the first element, whatever it is (an empty root too)
  if (parts.length > MAX_PATH_DEPTH) return { path: raw, problem: 'path too deep', skip: true };
  const { root, rest } = stripRoot(parts.join('/'));
  if (rest.split('/').includes('..')) return { path: raw, problem: 'path traversal (..)', skip: true };
  let p = posix.normalize(rest);
  p = p.replace(/^(?:\.\/)+/, '').replace(/\/+$/, '');
  if (p === '' || p === '.') return { path: raw, skip: true }; // the package folder itself
  return root || rawAbsolute ? { path: p, problem: 'absolute path' } : { path: p };
}

/** Scripts npm runs when the package is installed (and `prepare`, for git installs). */
const LIFECYCLE = /^(?:pre|post)?(?:install|prepare)$/;

const FILE_TYPES = new Set(['File', 'OldFile', 'ContiguousFile']);
const DIR_TYPES = new Set(['Directory', 'GNUDumpDir']);

interface Capture {
  path: string;
  size: number;
  keep: number;
  got: number;
  chunks: Buffer[];
}

/** node-tar's parser plus the capture policy and the entry-level limits. */
class EntryReader {
  readonly files: PackageFile[] = [];
  private readonly fileIndex = new Map<string, number>();
  readonly skipped: SkippedFile[] = [];
  readonly problems: string[] = [];
  readonly limitsHit: string[] = [];
  entries = 0;
  sawEof = false;
  aborted = false;
  /** Why reading is thinned (a limit hit); undefined while reading normally. */
  degraded: string | undefined;
  private degradedBytes = 0;
  private degradedFiles = 0;
  private notRead = 0;
  private readonly parser: Parser;
  private truncatedWarn = false;

  constructor(private readonly limits: AnalysisLimits) {
    this.parser = new Parser({ strict: false, brotli: false, zstd: false });
    // The input reaching the parser is already plain tar: npm sniffs for gzip once, so must we.
    const unzip = Object.getOwnPropertySymbols(this.parser).find((s) => s.description === 'unzip');
    if (unzip) (this.parser as unknown as Record<symbol, unknown>)[unzip] = false;
    this.parser.on('entry', (e: ReadEntry) => this.onEntry(e));
    this.parser.on('ignoredEntry', (e: ReadEntry) => this.onIgnored(e));
    this.parser.on('eof', () => {
      this.sawEof = true;
    });
    this.parser.on('warn', (code: string, message: string) => this.onWarn(code, message));
    this.parser.on('error', (err: Error) => {
      this.aborted = true;
      this.addProblem('read_error', `The archive could not be parsed: ${err.message}.`);
    });
  }

  private tag(t: string): void {
    if (!this.limitsHit.includes(t)) this.limitsHit.push(t);
  }

  private addProblem(tag: string, sentence: string): void {
    this.tag(tag);
    if (!this.problems.includes(sentence)) this.problems.push(sentence);
  }

  private onWarn(code: string, message: string): void {
    if (/checksum failure/.test(message)) {
      this.addProblem(
        'corrupt_tar_header',
        'The archive contains a corrupt tar header (bad checksum); npm skips such blocks and reads on, and so did the analysis.',
      );
    } else if (/^Truncated input/.test(message)) {
      this.truncatedWarn = true;
    } else if (code === 'TAR_BAD_ARCHIVE') {
      this.addProblem('not_tar', 'The upload holds no valid tar entry; nothing was analysed.');
    } else if (code === 'TAR_ENTRY_INVALID') {
      this.addProblem(
        'corrupt_tar_header',
        `The archive contains an invalid tar header (${message}); it was skipped as npm skips it.`,
      );
    }
  }

  /** Thins the reading from here on: headers are still read, file data only where it is small. */
  degrade(tag: string, sentence: string): void {
    this.addProblem(tag, sentence);
    this.degraded ??= tag;
  }

  get truncated(): boolean {
    return this.truncatedWarn;
  }

  write(chunk: Buffer): void {
    if (!this.aborted) this.parser.write(chunk);
  }

  end(): Promise<void> {
    return new Promise((resolve) => {
      if (this.aborted) return resolve();
      this.parser.once('end', () => resolve());
      this.parser.once('error', () => resolve());
      this.parser.end();
    });
  }

  /** Set when even header-only reading went on too long (five times the entry limit). */
  tooManyEntries = false;

  private countEntry(): void {
    this.entries++;
    if (this.entries > this.limits.maxEntries * 5 && !this.tooManyEntries) {
      this.tooManyEntries = true;
      this.addProblem(
        'max_entries',
        `The archive has more than ${this.limits.maxEntries * 5} entries; reading stopped there.`,
      );
    }
    if (this.entries === this.limits.maxEntries + 1) {
      this.degrade(
        'max_entries',
        `The archive has more than ${this.limits.maxEntries} entries; only the headers and small files of the rest were read.`,
      );
    }
  }

  private onIgnored(e: ReadEntry): void {
    if (e.meta) return;
    this.countEntry();
    if (!FILE_TYPES.has(e.type) && !DIR_TYPES.has(e.type)) {
      this.recordSkip({ path: e.path, reason: `special tar entry of type "${e.type}"` });
    }
    e.resume();
  }

  private recordSkip(s: SkippedFile): void {
    if (this.skipped.length < MAX_SKIP_RECORDS * 5) this.skipped.push(s);
  }

  private onEntry(e: ReadEntry): void {
    this.countEntry();
    const norm = normalizeEntryPath(e.path);
    if (e.type === 'Link' || e.type === 'SymbolicLink') {
      const kind = e.type === 'Link' ? 'hardlink' : 'symlink';
      const target = String(e.linkpath ?? '');
      this.recordSkip({ path: norm.path, reason: `${kind} to ${target} (links are never followed)` });
      this.addProblem(
        'link_entry',
        `The archive contains a ${kind} ${norm.path} -> ${target}; npm packages do not need links.`,
      );
      e.resume();
      return;
    }
    if (!FILE_TYPES.has(e.type)) {
      if (!DIR_TYPES.has(e.type))
        this.recordSkip({ path: norm.path, reason: `special tar entry of type "${e.type}"` });
      e.resume();
      return;
    }
    if (norm.skip) {
      if (norm.problem) {
        this.recordSkip({ path: e.path, reason: norm.problem });
        const tag = norm.problem.startsWith('path traversal') ? 'path_traversal' : 'path_too_deep';
        this.tag(tag);
        this.problems.push(
          `The archive entry "${e.path}" has an unsafe path (${norm.problem}); it was skipped, as npm skips it.`,
        );
      }
      e.resume();
      return;
    }
    if (norm.problem) {
      this.tag('absolute_path');
      this.problems.push(
        `The archive entry "${e.path}" has an unsafe path (${norm.problem}); npm writes it as ${norm.path} inside the package, and it was analysed there.`,
      );
    }
    const size = e.size;
    const text = isTextPath(norm.path);
    let keep: number;
    if (this.degraded === undefined) {
      keep = Math.min(size, text ? this.limits.maxTextFileBytes : this.limits.headBytes);
      if (size > keep && text) {
        this.recordSkip({
          path: norm.path,
          reason: `larger than ${this.limits.maxTextFileBytes} bytes: only the first ${keep} bytes were checked`,
        });
        this.tag('max_text_file_bytes');
      }
    } else if (
      norm.path === 'package.json' ||
      (this.scriptFiles.has(norm.path) && size <= this.limits.maxTextFileBytes) ||
      (text &&
        size <= DEGRADED_FILE_BYTES &&
        this.degradedFiles < DEGRADED_MAX_FILES &&
        this.degradedBytes + size <= DEGRADED_TOTAL_BYTES)
    ) {
      keep = Math.min(size, this.limits.maxTextFileBytes);
      this.degradedFiles++;
      this.degradedBytes += keep;
    } else {
      this.notRead++;
      if (this.notRead <= MAX_SKIP_RECORDS)
        this.recordSkip({
          path: norm.path,
          reason: `not read: the archive limits were hit before it (${this.degraded})`,
        });
      e.resume();
      return;
    }
    const cap: Capture = { path: norm.path, size, keep, got: 0, chunks: [] };
    e.on('data', (c: Buffer) => {
      const room = cap.keep - cap.got;
      if (room <= 0) return;
      const part = c.length <= room ? c : c.subarray(0, room);
      cap.chunks.push(Buffer.from(part));
      cap.got += part.length;
    });
    e.on('end', () => this.finish(cap));
  }

  /** Files the lifecycle scripts of package.json name: kept whatever the limits, once it is read. */
  private readonly scriptFiles = new Set<string>();

  private noteScriptFiles(data: Buffer): void {
    let scripts: unknown;
    try {
      scripts = (JSON.parse(data.toString('utf8')) as { scripts?: unknown }).scripts;
    } catch {
      return;
    }
    if (!scripts || typeof scripts !== 'object') return;
    for (const [name, command] of Object.entries(scripts as Record<string, unknown>)) {
      if (!LIFECYCLE.test(name) || typeof command !== 'string') continue;
      for (const token of command.split(/[\s;&|()<>"'`=]+/)) {
        const p = posix.normalize(token.replace(/^\.\//, ''));
        if (p && p !== '.' && !p.startsWith('..') && !p.startsWith('/') && this.scriptFiles.size < 50)
          this.scriptFiles.add(p);
      }
    }
  }

  private finish(c: Capture): void {
    const data = c.chunks.length === 1 ? c.chunks[0]! : Buffer.concat(c.chunks);
    if (c.path === 'package.json') this.noteScriptFiles(data);
    const file: PackageFile = { path: c.path, size: c.size, data, truncated: data.length < c.size };
    // As on disk, a later entry with the same path replaces the earlier one.
    const existing = this.fileIndex.get(c.path);
    if (existing !== undefined) this.files[existing] = file;
    else {
      this.fileIndex.set(c.path, this.files.length);
      this.files.push(file);
    }
  }

  /** Names files left out after a limit hit that were not listed one by one. */
  finalNotes(): void {
    if (this.notRead > MAX_SKIP_RECORDS)
      this.skipped.push({
        path: '(more files)',
        reason: `${this.notRead - MAX_SKIP_RECORDS} more files not read after the archive limits were hit`,
      });
  }
}

function isGzip(head: Buffer): boolean {
  return head.length >= 2 && head[0] === 0x1f && head[1] === 0x8b;
}

function looksLikeTar(head: Buffer): boolean {
  return head.length >= 262 && head.toString('latin1', 257, 262) === 'ustar';
}

class StopReading extends Error {}

/**
 * Reads a gzip-compressed tarball (or a bare tar) from a buffer or a stream, within the limits.
 * Never throws for hostile input: problems are returned as `problems` and `limitsHit`.
 */
export async function readTarball(
  input: Buffer | NodeJS.ReadableStream,
  limits: AnalysisLimits,
): Promise<ArchiveContents> {
  const t0 = performance.now();
  // Reading after a limit hit (headers only) gets at most this share of the package budget.
  const readDeadline = t0 + limits.packageTimeBudgetMs / 2;
  const reader = new EntryReader(limits);
  const problems: string[] = [];
  const limitsHit: string[] = [];
  let compressed = 0;
  let unpacked = 0;
  let stoppedByLimit = false;
  const source: AsyncIterable<Buffer> = Buffer.isBuffer(input)
    ? Readable.from([input], { objectMode: false })
    : (input as AsyncIterable<Buffer>);

  let mode: 'unknown' | 'gzip' | 'tar' | 'reject' = 'unknown';
  const gunzip = createGunzip({ chunkSize: 64 * 1024 });
  let gunzipError: Error | undefined;
  let stop = false;

  const hardStop = (tag: string, sentence: string) => {
    limitsHit.push(tag);
    problems.push(sentence);
    stoppedByLimit = true;
    throw new StopReading();
  };

  const onPlain = (chunk: Buffer) => {
    unpacked += chunk.length;
    if (unpacked > limits.maxUnpackedBytes) {
      hardStop(
        'max_unpacked_bytes',
        `The archive unpacks to more than ${limits.maxUnpackedBytes} bytes; the rest was not read.`,
      );
    }
    if (
      reader.degraded === undefined &&
      unpacked > limits.ratioGraceBytes &&
      unpacked / Math.max(compressed, 1) > limits.maxCompressionRatio
    ) {
      reader.degrade(
        'max_compression_ratio',
        `The archive expands more than ${limits.maxCompressionRatio}x (a gzip bomb or padding) after ${unpacked} bytes; the rest was read for headers and small files only.`,
      );
    }
    if (reader.degraded !== undefined && performance.now() > readDeadline) {
      hardStop(
        'archive_time_budget',
        `Reading the archive after its limits were hit took more than ${Math.round(limits.packageTimeBudgetMs / 2000)} s; the rest was not read.`,
      );
    }
    reader.write(chunk);
    if (reader.tooManyEntries) stoppedByLimit = true;
    if (reader.sawEof || reader.aborted || reader.tooManyEntries) throw new StopReading();
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
        stoppedByLimit = true;
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
      if (stop || gunzipError || reader.sawEof || reader.aborted || reader.tooManyEntries) break;
    }
  } catch (err) {
    if (!(err instanceof StopReading)) {
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
  if (mode === 'gzip' || mode === 'tar') await reader.end();
  if (
    (mode === 'gzip' || mode === 'tar') &&
    !reader.sawEof &&
    !stoppedByLimit &&
    !reader.aborted &&
    !limitsHit.includes('truncated_archive')
  ) {
    problems.push(
      reader.truncated
        ? 'The archive is truncated in the middle of an entry; entries read so far were analysed.'
        : 'The tar archive ends without its end-of-archive marker (truncated); entries read so far were analysed.',
    );
    limitsHit.push('truncated_archive');
  }
  reader.finalNotes();
  caseCollisions(reader.files, problems, limitsHit);
  for (const p of reader.problems) problems.push(p);
  for (const l of reader.limitsHit) if (!limitsHit.includes(l)) limitsHit.push(l);
  return {
    files: reader.files,
    skipped: reader.skipped,
    limitsHit,
    problems,
    compressedBytes: compressed,
    unpackedBytes: unpacked,
    incomplete: stoppedByLimit || reader.degraded !== undefined,
  };
}

/**
 * Names that differ only in case (or in Unicode normalization) are two files on Linux but one on
 * the case-insensitive disks of macOS and Windows, where npm writes the later entry over the
 * earlier one: a script that runs one name may run the other file's code there. Both files are
 * analysed; the pair is reported. No popular package ships such names.
 */
function caseCollisions(files: PackageFile[], problems: string[], limitsHit: string[]): void {
  const seen = new Map<string, string>();
  const pairs: string[] = [];
  for (const f of files) {
    const key = f.path.normalize('NFC').toLowerCase();
    const first = seen.get(key);
    if (first === undefined) seen.set(key, f.path);
    else pairs.push(`${first} and ${f.path}`);
  }
  if (pairs.length === 0) return;
  limitsHit.push('case_collision');
  problems.push(
    `The archive holds files whose names differ only in case (${pairs.slice(0, 3).join('; ')}${pairs.length > 3 ? `; ${pairs.length - 3} more` : ''}): on macOS and Windows npm writes the later one over the earlier one.`,
  );
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
