// s3rver 3.x ships no types; only the part the local stand-ins use.
declare module 's3rver' {
  import { EventEmitter } from 'node:events';
  import type { Server } from 'node:http';

  interface S3rverOptions {
    address?: string;
    port?: number;
    silent?: boolean;
    directory?: string;
    resetOnClose?: boolean;
    allowMismatchedSignatures?: boolean;
    vhostBuckets?: boolean;
    configureBuckets?: Array<{ name: string; configs?: Array<string | Buffer> }>;
  }

  /** A Koa application: it emits `event` with S3 notification records for stored objects. */
  export default class S3rver extends EventEmitter {
    constructor(options?: S3rverOptions);
    httpServer?: Server;
    run(): Promise<{ address: string; port: number }>;
    close(): Promise<void>;
  }
}
