/** Uploaded tarballs in S3: streamed in, presigned for large uploads, read back by the scanner. */
import type { Readable } from 'node:stream';
import { GetObjectCommand, PutObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';

export const uploadKey = (jobId: string) => `uploads/${jobId}.tgz`;
export const jobIdFromUploadKey = (key: string): string | undefined =>
  /^uploads\/([0-9a-f-]{36})\.tgz$/.exec(key)?.[1];

export class UploadStore {
  constructor(
    private readonly s3: S3Client,
    private readonly bucket: string,
  ) {}

  /** Streams a body of known length to S3 (one PutObject; nothing is buffered). */
  async putStream(key: string, body: Readable, contentLength: number): Promise<void> {
    await this.s3.send(
      new PutObjectCommand({
        Bucket: this.bucket,
        Key: key,
        Body: body,
        ContentLength: contentLength,
        ContentType: 'application/gzip',
      }),
    );
  }

  async presignPut(key: string, expiresInSeconds: number): Promise<string> {
    return getSignedUrl(this.s3, new PutObjectCommand({ Bucket: this.bucket, Key: key }), {
      expiresIn: expiresInSeconds,
    });
  }

  /** Reads an object, refusing more than `maxBytes`. */
  async read(key: string, maxBytes: number): Promise<Buffer> {
    const out = await this.s3.send(new GetObjectCommand({ Bucket: this.bucket, Key: key }));
    if ((out.ContentLength ?? 0) > maxBytes) {
      throw new Error(`Uploaded tarball is ${out.ContentLength} bytes; the limit is ${maxBytes}`);
    }
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of out.Body as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > maxBytes) throw new Error(`Uploaded tarball exceeds the limit of ${maxBytes} bytes`);
      chunks.push(chunk);
    }
    return Buffer.concat(chunks);
  }
}
