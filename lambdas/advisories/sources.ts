/**
 * Where OSV records come from: a folder of JSON files, a zip export read as a stream (entries are
 * inflated one at a time as the bytes arrive, so a 200 MB export needs neither the memory nor
 * /tmp to hold it), or a URL to such a zip (the HTTP body is streamed into the same reader).
 *
 * A source yields one item per JSON entry and throws when the input itself is broken: a zip
 * that ends before its end-of-central-directory record (a truncated download) or an HTTP body
 * shorter than its Content-Length.
 */
import { createReadStream } from 'node:fs';
import { readFile, readdir, stat } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { Readable, Transform, type TransformCallback } from 'node:stream';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import type { Entry } from 'unzipper';
import Parse from 'unzipper/lib/parse.js';

/** OSV's public export of every npm record (a zip of OSV JSON files). */
export const OSV_NPM_EXPORT_URL = 'https://osv-vulnerabilities.storage.googleapis.com/npm/all.zip';

export interface OsvEntry {
  /** File or zip entry path, for reports. */
  readonly path: string;
  readonly text: string;
}

export class OsvSourceError extends Error {
  override readonly name = 'OsvSourceError';
}

/** Largest JSON entry read (real records are a few KB; this bounds a hostile zip). */
export const MAX_ENTRY_BYTES = 4 * 1024 * 1024;

/** Every `*.json` file under `dir`, in sorted path order. */
export async function* readOsvFolder(dir: string): AsyncGenerator<OsvEntry> {
  const files = (await readdir(dir, { recursive: true }))
    .map(String)
    .filter((file) => file.endsWith('.json'))
    .sort();
  for (const file of files) {
    const path = join(dir, file);
    yield { path: relative(dir, path), text: await readFile(path, 'utf8') };
  }
}

const EOCD_SIGNATURE = Buffer.from([0x50, 0x4b, 0x05, 0x06]);
/** The end-of-central-directory record is 22 bytes plus a comment of at most 65,535. */
const EOCD_WINDOW = 22 + 65_535;

/**
 * Passes bytes through, keeping the tail, and fails at the end when the tail holds no
 * end-of-central-directory record: the zip was cut short.
 */
class ZipEndCheck extends Transform {
  private tail = Buffer.alloc(0);

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    const joined = Buffer.concat([this.tail, chunk]);
    this.tail = joined.subarray(Math.max(0, joined.length - EOCD_WINDOW));
    callback(null, chunk);
  }

  override _flush(callback: TransformCallback): void {
    const at = this.tail.lastIndexOf(EOCD_SIGNATURE);
    if (at < 0 || this.tail.length - at < 22) {
      callback(new OsvSourceError('The zip ended before its central directory: the download was truncated'));
    } else {
      callback();
    }
  }
}

type ZipEntry = Entry;

async function readEntry(entry: ZipEntry): Promise<Buffer | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of entry as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size <= MAX_ENTRY_BYTES) chunks.push(chunk);
  }
  return size <= MAX_ENTRY_BYTES ? Buffer.concat(chunks) : undefined;
}

/**
 * The JSON entries of a zip, read from a stream. An entry over MAX_ENTRY_BYTES is yielded with
 * empty text (so the importer reports it as malformed) and the rest go on.
 */
export async function* readOsvZip(input: Readable): AsyncGenerator<OsvEntry> {
  const endCheck = new ZipEndCheck();
  const parser = Parse({ forceStream: true });
  input.on('error', (error) => endCheck.destroy(error));
  endCheck.on('error', (error) => parser.destroy(error));
  input.pipe(endCheck).pipe(parser);
  try {
    for await (const item of parser as unknown as AsyncIterable<ZipEntry>) {
      if (item.type !== 'File' || !item.path.endsWith('.json')) {
        await item.autodrain().promise();
        continue;
      }
      const bytes = await readEntry(item);
      yield { path: item.path, text: bytes ? bytes.toString('utf8') : '' };
    }
  } catch (error) {
    throw error instanceof OsvSourceError
      ? error
      : new OsvSourceError(`The zip could not be read: ${(error as Error).message}`, { cause: error });
  } finally {
    input.destroy();
    parser.destroy();
  }
}

/**
 * Counts the bytes of an HTTP body and fails at the end when fewer arrived than announced
 * (fetch usually notices a connection closed early itself; this covers the rest).
 */
class LengthCheck extends Transform {
  private received = 0;

  constructor(private readonly expected: number | undefined) {
    super();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    this.received += chunk.length;
    callback(null, chunk);
  }

  override _flush(callback: TransformCallback): void {
    if (this.expected !== undefined && this.received < this.expected) {
      callback(new OsvSourceError(`The download ended after ${this.received} of ${this.expected} bytes`));
    } else {
      callback();
    }
  }
}

export interface FetchOptions {
  readonly fetch?: typeof fetch;
  readonly signal?: AbortSignal;
}

/** Streams the zip at `url` into readOsvZip. */
export async function* fetchOsvZip(url: string, options: FetchOptions = {}): AsyncGenerator<OsvEntry> {
  const doFetch = options.fetch ?? fetch;
  let response: Response;
  try {
    response = await doFetch(url, options.signal ? { signal: options.signal } : {});
  } catch (error) {
    throw new OsvSourceError(`Download of ${url} failed: ${(error as Error).message}`, { cause: error });
  }
  if (!response.ok || !response.body) {
    throw new OsvSourceError(`Download of ${url} failed: HTTP ${response.status}`);
  }
  const length = Number(response.headers.get('content-length') ?? Number.NaN);
  const body = Readable.fromWeb(response.body as WebReadableStream<Uint8Array>);
  const checked = new LengthCheck(Number.isFinite(length) ? length : undefined);
  body.on('error', (error) =>
    checked.destroy(new OsvSourceError(`Download of ${url} broke off: ${error.message}`, { cause: error })),
  );
  try {
    yield* readOsvZip(body.pipe(checked));
  } finally {
    body.destroy(); // stopping early (a deadline) must not leave the connection open
  }
}

/** A folder, a `.zip` file or an http(s) URL of a zip. */
export async function openOsvSource(
  location: string,
  options: FetchOptions = {},
): Promise<AsyncIterable<OsvEntry>> {
  if (/^https?:\/\//i.test(location)) return fetchOsvZip(location, options);
  const info = await stat(location);
  if (info.isDirectory()) return readOsvFolder(location);
  return readOsvZip(createReadStream(location));
}
