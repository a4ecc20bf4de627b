/**
 * The `tarball` part of a multipart/form-data body, read with a streaming parser (busboy).
 *
 * The body is parsed twice over the one buffer API Gateway hands the Lambda: a first pass
 * validates the part (present, gzip magic bytes, size limit) and measures it; a second pass
 * streams it to its destination with a known length. busboy hands out slices of the input,
 * so no second copy of the file is ever made, and nothing is written for an invalid upload.
 */
import { PassThrough, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import Busboy from '@fastify/busboy';
import { HttpError, badRequest } from '../domain/errors';

export const TARBALL_FIELD = 'tarball';

/** The one answer to a body or tarball over a limit: where larger tarballs go instead. */
export function tooLargeMessage(limitBytes: number): string {
  return `Request too large: inline uploads are limited to ${limitBytes} bytes; request a presigned upload with POST /v1/scan/upload-url for larger tarballs`;
}
const GZIP_MAGIC = [0x1f, 0x8b] as const;

export interface TarballPart {
  readonly filename: string;
  readonly size: number;
}

/** Validates the tarball part and returns its name and size, without keeping its bytes. */
export async function inspectTarballPart(
  body: Buffer,
  contentType: string,
  maxBytes: number,
): Promise<TarballPart> {
  let part: TarballPart | undefined;
  await parseParts(body, contentType, maxBytes, async (stream, filename) => {
    let size = 0;
    let head = Buffer.alloc(0);
    let truncated = false;
    stream.on('limit', () => {
      truncated = true;
    });
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      if (head.length < GZIP_MAGIC.length) head = Buffer.concat([head, chunk.subarray(0, GZIP_MAGIC.length)]);
      size += chunk.length;
    }
    if (truncated) throw new HttpError(413, tooLargeMessage(maxBytes));
    if (size === 0) throw badRequest(`Form field ${TARBALL_FIELD} is empty`);
    if (head[0] !== GZIP_MAGIC[0] || head[1] !== GZIP_MAGIC[1]) {
      throw badRequest(`Form field ${TARBALL_FIELD} is not a gzip file (.tgz or .tar.gz expected)`);
    }
    part = { filename, size };
  });
  if (!part) throw badRequest(`Form field ${TARBALL_FIELD} is missing`);
  return part;
}

/** Streams the (already inspected) tarball part to `sink`. */
export async function streamTarballPart(
  body: Buffer,
  contentType: string,
  maxBytes: number,
  sink: (stream: Readable) => Promise<void>,
): Promise<void> {
  await parseParts(body, contentType, maxBytes, async (stream) => {
    const pass = new PassThrough();
    try {
      // Both sides settle: a sink that fails must not leave the parser waiting on backpressure.
      await Promise.all([sink(pass), pipeline(stream, pass)]);
    } catch (error) {
      stream.unpipe();
      stream.resume();
      pass.destroy();
      throw error;
    }
  });
}

async function parseParts(
  body: Buffer,
  contentType: string,
  maxBytes: number,
  onTarball: (
    stream: Readable & { on(event: 'limit', listener: () => void): unknown },
    filename: string,
  ) => Promise<void>,
): Promise<void> {
  if (!/^multipart\/form-data\b/i.test(contentType)) {
    throw new HttpError(415, 'Content-Type must be multipart/form-data with a file field named tarball');
  }
  const boundary = /boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(contentType);
  const delimiter = boundary?.[1] ?? boundary?.[2];
  if (delimiter !== undefined && body.lastIndexOf(`--${delimiter}--`) < 0) {
    throw badRequest('Truncated multipart/form-data body: the closing boundary is missing');
  }
  let parser: ReturnType<typeof Busboy>;
  try {
    parser = Busboy({
      headers: { 'content-type': contentType },
      limits: { fileSize: maxBytes, files: 4, parts: 16 },
    });
  } catch {
    throw badRequest('Malformed multipart/form-data request (missing boundary?)');
  }
  await new Promise<void>((resolve, reject) => {
    let work: Promise<void> | undefined;
    parser.on('file', (field, stream, filename) => {
      if (field === TARBALL_FIELD && work !== undefined) {
        // Two files under one name: which one to scan is ambiguous, so neither is.
        stream.resume();
        reject(
          badRequest(`Form field ${TARBALL_FIELD} is given more than once: send one tarball per request`),
        );
        return;
      }
      if (field !== TARBALL_FIELD) {
        stream.resume();
        return;
      }
      work = onTarball(stream, filename);
      work.catch((error: unknown) => {
        stream.resume();
        reject(error);
      });
    });
    parser.on('error', () => reject(badRequest('Malformed multipart/form-data body')));
    parser.on('finish', () => {
      if (work === undefined) resolve();
      else work.then(resolve, reject);
    });
    parser.end(body);
  });
}
