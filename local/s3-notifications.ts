/**
 * The uploads bucket's event notification, played locally: s3rver emits an `event` for every
 * object it stores; ObjectCreated events under the prefix are handed to the upload-received
 * handler as a real-shaped `S3Event` (one record per invocation, as S3 sends them), like the
 * stack's `addEventNotification(OBJECT_CREATED, LambdaDestination, { prefix: 'uploads/' })`.
 *
 * Differences from s3rver's own event fixed here: the object key is URL-encoded as S3 encodes it
 * (spaces as `+`), the bucket ARN is well-formed, and `eTag` has no quotes. As with an
 * asynchronous Lambda invocation, a handler that throws is retried twice (after 1 s and 2 s).
 */
import { randomBytes } from 'node:crypto';
import type { Context, S3Event, S3EventRecord } from 'aws-lambda';
import { serviceNameOf } from '../lambdas/shared/observability';
import { LOCAL_LAMBDA_REGION, lambdaContext } from './lambda-context';

export type S3Handler = (event: S3Event, context: Context) => Promise<unknown>;

/** What s3rver gives us: an emitter of `event` (its notification records). */
export interface S3EventEmitter {
  on(event: 'event', listener: (event: unknown) => void): unknown;
  off(event: 'event', listener: (event: unknown) => void): unknown;
}

export interface S3NotificationOptions {
  /** The s3rver instance. */
  readonly source: S3EventEmitter;
  /** Only keys under this prefix are forwarded. @default 'uploads/' */
  readonly prefix?: string;
  /** @default the upload-received handler, `lambdas/handlers/upload-received` */
  readonly loadHandler?: () => Promise<S3Handler>;
  /** Delays before the retries of a failed invocation. @default [1000, 2000] */
  readonly retryDelaysMs?: readonly number[];
  readonly log?: (line: string) => void;
  /** @default console.error */
  readonly errorLog?: (line: string, error?: unknown) => void;
}

export interface S3Notifications {
  /** Loads the handler and starts listening. */
  start(): Promise<void>;
  /** Stops listening and waits for invocations under way. */
  stop(): Promise<void>;
  /** Resolves when no invocation is under way. */
  settled(): Promise<void>;
}

const FUNCTION_NAME = serviceNameOf('upload-received');

interface S3rverRecord {
  eventName?: string;
  eventTime?: string;
  requestParameters?: { sourceIPAddress?: string };
  s3?: {
    bucket?: { name?: string };
    object?: { key?: string; size?: number; eTag?: string; sequencer?: string };
  };
}

async function importUploadReceived(): Promise<S3Handler> {
  const module = (await import('../lambdas/handlers/upload-received')) as { handler?: unknown };
  if (typeof module.handler !== 'function')
    throw new Error('lambdas/handlers/upload-received exports no handler');
  return module.handler as S3Handler;
}

/** S3 encodes keys in notifications like a form value: `%XX` escapes, spaces as `+`, `/` kept. */
export function encodeS3EventKey(key: string): string {
  return encodeURIComponent(key).replace(/%20/g, '+').replace(/%2F/gi, '/');
}

/** The record S3 sends to Lambda for a stored object. */
export function s3EventRecord(input: {
  bucket: string;
  key: string;
  size?: number;
  eTag?: string;
  eventName?: string;
  sourceIp?: string;
  sequencer?: string;
}): S3EventRecord {
  const hex = (n: number) => randomBytes(n).toString('hex').toUpperCase();
  return {
    eventVersion: '2.1',
    eventSource: 'aws:s3',
    awsRegion: LOCAL_LAMBDA_REGION,
    eventTime: new Date().toISOString(),
    eventName: (input.eventName ?? 'ObjectCreated:Put') as S3EventRecord['eventName'],
    userIdentity: { principalId: `AWS:${hex(10)}` },
    requestParameters: { sourceIPAddress: input.sourceIp ?? '127.0.0.1' },
    responseElements: { 'x-amz-request-id': hex(8), 'x-amz-id-2': randomBytes(48).toString('base64') },
    s3: {
      s3SchemaVersion: '1.0',
      configurationId: 'pkgscan-uploads-local',
      bucket: {
        name: input.bucket,
        ownerIdentity: { principalId: hex(7) },
        arn: `arn:aws:s3:::${input.bucket}`,
      },
      object: {
        key: encodeS3EventKey(input.key),
        size: input.size ?? 0,
        eTag: (input.eTag ?? '').replace(/"/g, ''),
        sequencer: input.sequencer ?? Date.now().toString(16).toUpperCase(),
      },
    },
  };
}

export function forwardS3Notifications(options: S3NotificationOptions): S3Notifications {
  const prefix = options.prefix ?? 'uploads/';
  const retryDelays = options.retryDelaysMs ?? [1_000, 2_000];
  const log = options.log ?? (() => undefined);
  const errorLog = options.errorLog ?? ((line: string, error?: unknown) => console.error(line, error ?? ''));
  const pending = new Set<Promise<void>>();
  let handler: S3Handler | undefined;
  let stopped = false;

  const invoke = async (record: S3EventRecord, scan: S3Handler): Promise<void> => {
    for (let attempt = 0; ; attempt++) {
      try {
        await scan({ Records: [record] }, lambdaContext(FUNCTION_NAME, '256', 30_000));
        log(`upload notification for ${record.s3.object.key} delivered`);
        return;
      } catch (error) {
        const delay = retryDelays[attempt];
        if (delay === undefined || stopped) {
          errorLog(`S3 notification for ${record.s3.object.key} failed ${attempt + 1} times; dropped`, error);
          return;
        }
        await new Promise((done) => setTimeout(done, delay));
      }
    }
  };

  const listener = (event: unknown): void => {
    if (stopped || !handler) return;
    const scan = handler;
    for (const raw of (event as { Records?: S3rverRecord[] }).Records ?? []) {
      const key = raw.s3?.object?.key;
      const bucket = raw.s3?.bucket?.name;
      if (!raw.eventName?.startsWith('ObjectCreated:') || key === undefined || bucket === undefined) continue;
      if (!key.startsWith(prefix)) continue;
      const record = s3EventRecord({
        bucket,
        key,
        size: raw.s3?.object?.size,
        eTag: raw.s3?.object?.eTag,
        eventName: raw.eventName,
        sourceIp: raw.requestParameters?.sourceIPAddress,
        sequencer: raw.s3?.object?.sequencer,
      });
      // S3 notifies asynchronously: the PUT has been answered (or is being) when the handler runs.
      const run = new Promise<void>((done) => setImmediate(done)).then(() => invoke(record, scan));
      pending.add(run);
      void run.finally(() => pending.delete(run));
    }
  };

  return {
    async start() {
      handler = await (options.loadHandler ?? importUploadReceived)();
      options.source.on('event', listener);
    },
    async stop() {
      stopped = true;
      options.source.off('event', listener);
      await Promise.all(pending);
    },
    async settled() {
      while (pending.size > 0) await Promise.all(pending);
    },
  };
}
