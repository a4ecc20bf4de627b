/**
 * The scanner Lambda's SQS event source, played locally: polls the scan queue, hands each
 * message to the scanner handler as a real-shaped `SQSEvent` (one record per invocation, like an
 * event source mapping with batch size 1), deletes what the handler did not report in
 * `batchItemFailures` and leaves failed messages in the queue, so they come back once their
 * visibility timeout runs out and, after the queue's maxReceiveCount, move to its dead-letter
 * queue.
 *
 * Visibility: each receive sets `VisibilityTimeout` (the retry delay of a failed message), since
 * local-aws-sqs counts a `ChangeMessageVisibility` as one more receive, which would push messages
 * to the dead-letter queue early. A message whose visibility runs out while its scan still runs
 * (scan slower than the timeout) is not scanned twice at once by this worker: the second copy
 * only refreshes the receipt handle used to delete it.
 */
import {
  DeleteMessageCommand,
  ReceiveMessageCommand,
  SQSClient,
  type Message,
  type MessageAttributeValue,
} from '@aws-sdk/client-sqs';
import type { Context, SQSBatchResponse, SQSEvent, SQSMessageAttributes, SQSRecord } from 'aws-lambda';
import { serviceNameOf } from '../lambdas/shared/observability';
import { LOCAL_ACCOUNT, LOCAL_LAMBDA_REGION, lambdaContext } from './lambda-context';

export type SqsHandler = (event: SQSEvent, context: Context) => Promise<SQSBatchResponse | void>;

export interface ScannerWorkerOptions {
  readonly queueUrl: string;
  /** @default an SQSClient from the standard environment (AWS_ENDPOINT_URL_SQS) */
  readonly sqs?: SQSClient;
  /** @default the scanner handler, `lambdas/handlers/scanner` (imported on start, after the environment is set) */
  readonly loadHandler?: () => Promise<SqsHandler>;
  /** Messages scanned at the same time (the function's reserved concurrency). @default 2 */
  readonly concurrency?: number;
  /** Long-poll wait of each receive (with MaxNumberOfMessages 1 the stand-in returns early). @default 1 */
  readonly waitTimeSeconds?: number;
  /** Visibility timeout set by each receive: how long a failed message waits before its retry. @default the queue's */
  readonly visibilityTimeoutSeconds?: number;
  /** Lambda timeout given to the handler's context. @default 300000 (the stack's scanner timeout) */
  readonly functionTimeoutMs?: number;
  /** How long stop() waits for running scans before it gives up on them. @default 30000 */
  readonly stopTimeoutMs?: number;
  /** One line per message handled. @default none */
  readonly log?: (line: string) => void;
  /** Called after each delivery is handled (benchmarks use it for scan times). */
  readonly onHandled?: (delivery: HandledDelivery) => void;
  /** Unexpected errors (receive, delete, a handler that throws). @default console.error */
  readonly errorLog?: (line: string, error?: unknown) => void;
}

export interface HandledDelivery {
  readonly messageId: string;
  /** The message body (a scan message: its job id). */
  readonly body: string;
  readonly receiveCount: number;
  /** Time in the handler. */
  readonly ms: number;
  /** Reported in batchItemFailures (or the invocation failed): left for redelivery. */
  readonly failed: boolean;
}

export interface WorkerStats {
  received: number;
  succeeded: number;
  /** Deliveries the handler reported as failed (left for redelivery). */
  failed: number;
  /** Receives of a message this worker was still scanning (its visibility ran out meanwhile). */
  overlapping: number;
}

export interface ScannerWorker {
  /** Loads the handler and starts polling. */
  start(): Promise<void>;
  /** Stops polling and waits for the running scans (up to `stopTimeoutMs`). Safe to call twice. */
  stop(): Promise<void>;
  /** Messages being handled right now. */
  readonly inFlight: number;
  readonly stats: Readonly<WorkerStats>;
}

const FUNCTION_NAME = serviceNameOf('scanner');
const RECEIVE_ERROR_BACKOFF_MS = 500;

async function importScanner(): Promise<SqsHandler> {
  const module = (await import('../lambdas/handlers/scanner')) as { handler?: unknown };
  if (typeof module.handler !== 'function') throw new Error('lambdas/handlers/scanner exports no handler');
  return module.handler as SqsHandler;
}

/** `arn:aws:sqs:<region>:<account>:<name>` from a queue URL (`.../<account>/<name>`). */
export function queueArn(queueUrl: string, region = LOCAL_LAMBDA_REGION): string {
  const [account, name] = new URL(queueUrl).pathname.split('/').filter(Boolean).slice(-2);
  return `arn:aws:sqs:${region}:${account ?? LOCAL_ACCOUNT}:${name ?? ''}`;
}

function lambdaMessageAttributes(
  attributes: Record<string, MessageAttributeValue> | undefined,
): SQSMessageAttributes {
  const out: SQSMessageAttributes = {};
  for (const [name, value] of Object.entries(attributes ?? {})) {
    out[name] = {
      dataType: value.DataType ?? 'String',
      stringListValues: [],
      binaryListValues: [],
      ...(value.StringValue !== undefined ? { stringValue: value.StringValue } : {}),
      ...(value.BinaryValue !== undefined
        ? { binaryValue: Buffer.from(value.BinaryValue).toString('base64') }
        : {}),
    };
  }
  return out;
}

/** The record Lambda's SQS event source builds from a received message. */
export function sqsRecord(message: Message, eventSourceARN: string, region = LOCAL_LAMBDA_REGION): SQSRecord {
  const attributes = message.Attributes ?? {};
  const now = String(Date.now());
  return {
    messageId: message.MessageId ?? '',
    receiptHandle: message.ReceiptHandle ?? '',
    body: message.Body ?? '',
    attributes: {
      ApproximateReceiveCount: attributes.ApproximateReceiveCount ?? '1',
      SentTimestamp: attributes.SentTimestamp ?? now,
      SenderId: attributes.SenderId ?? LOCAL_ACCOUNT,
      ApproximateFirstReceiveTimestamp: attributes.ApproximateFirstReceiveTimestamp || now,
      ...(attributes.AWSTraceHeader !== undefined ? { AWSTraceHeader: attributes.AWSTraceHeader } : {}),
    },
    messageAttributes: lambdaMessageAttributes(message.MessageAttributes),
    md5OfBody: message.MD5OfBody ?? '',
    eventSource: 'aws:sqs',
    eventSourceARN,
    awsRegion: region,
  };
}

/** `name@version (job …)` of a scan message, for log lines; the message id otherwise. */
function describe(record: SQSRecord): string {
  try {
    const body = JSON.parse(record.body) as { name?: unknown; version?: unknown; job_id?: unknown };
    if (typeof body.name === 'string' && typeof body.job_id === 'string') {
      return `${body.name}@${String(body.version)} (job ${body.job_id})`;
    }
  } catch {
    // not JSON: the scanner reports it
  }
  return `message ${record.messageId}`;
}

export function createScannerWorker(options: ScannerWorkerOptions): ScannerWorker {
  const sqs = options.sqs ?? new SQSClient({});
  const ownsClient = options.sqs === undefined;
  const concurrency = Math.max(1, Math.floor(options.concurrency ?? 2));
  const waitTimeSeconds = options.waitTimeSeconds ?? 1;
  const functionTimeoutMs = options.functionTimeoutMs ?? 300_000;
  const stopTimeoutMs = options.stopTimeoutMs ?? 30_000;
  const log = options.log ?? (() => undefined);
  const errorLog = options.errorLog ?? ((line: string, error?: unknown) => console.error(line, error ?? ''));
  const arn = queueArn(options.queueUrl);
  const stats: WorkerStats = { received: 0, succeeded: 0, failed: 0, overlapping: 0 };
  /** Latest receipt handle of each message being handled. */
  const running = new Map<string, string>();
  const abort = new AbortController();
  let handler: SqsHandler | undefined;
  let loops: Array<Promise<void>> = [];
  let state: 'new' | 'running' | 'stopping' | 'stopped' = 'new';

  const pause = (ms: number) =>
    new Promise<void>((done) => {
      const timer = setTimeout(done, ms);
      abort.signal.addEventListener('abort', () => {
        clearTimeout(timer);
        done();
      });
    });

  const handle = async (message: Message, scan: SqsHandler): Promise<void> => {
    const id = message.MessageId ?? '';
    const record = sqsRecord(message, arn);
    const started = Date.now();
    let failed: boolean;
    try {
      const context = lambdaContext(FUNCTION_NAME, '2048', functionTimeoutMs);
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(
          () => reject(new Error(`Task timed out after ${functionTimeoutMs} ms`)),
          functionTimeoutMs,
        );
      });
      try {
        const result = await Promise.race([scan({ Records: [record] }, context), timeout]);
        failed = (result?.batchItemFailures ?? []).some((f) => f.itemIdentifier === id);
      } finally {
        clearTimeout(timer);
      }
    } catch (error) {
      // The whole invocation failed: Lambda leaves every message of the batch for redelivery.
      errorLog(`scanner worker: the handler failed on message ${id}`, error);
      failed = true;
    }
    const ms = Date.now() - started;
    const receives = record.attributes.ApproximateReceiveCount;
    options.onHandled?.({ messageId: id, body: record.body, receiveCount: Number(receives), ms, failed });
    if (failed) {
      stats.failed++;
      log(`scan of ${describe(record)} failed on receive ${receives} after ${ms} ms: left for redelivery`);
      return;
    }
    stats.succeeded++;
    log(`scan of ${describe(record)} handled in ${ms} ms (receive ${receives})`);
    try {
      await sqs.send(
        new DeleteMessageCommand({
          QueueUrl: options.queueUrl,
          ReceiptHandle: running.get(id) ?? record.receiptHandle,
        }),
      );
    } catch (error) {
      // The message comes back and is skipped then (the scanner is idempotent).
      errorLog(`scanner worker: could not delete message ${id}`, error);
    }
  };

  const loop = async (scan: SqsHandler): Promise<void> => {
    while (state === 'running') {
      let messages: Message[];
      try {
        const out = await sqs.send(
          new ReceiveMessageCommand({
            QueueUrl: options.queueUrl,
            MaxNumberOfMessages: 1,
            WaitTimeSeconds: waitTimeSeconds,
            // The stand-in returns ApproximateReceiveCount only through the old AttributeNames.
            AttributeNames: ['All'],
            MessageSystemAttributeNames: ['All'],
            MessageAttributeNames: ['All'],
            ...(options.visibilityTimeoutSeconds !== undefined
              ? { VisibilityTimeout: options.visibilityTimeoutSeconds }
              : {}),
          }),
          { abortSignal: abort.signal },
        );
        messages = out.Messages ?? [];
      } catch (error) {
        if (state !== 'running') return;
        errorLog('scanner worker: receive failed', error);
        await pause(RECEIVE_ERROR_BACKOFF_MS);
        continue;
      }
      for (const message of messages) {
        stats.received++;
        const id = message.MessageId ?? '';
        if (running.has(id)) {
          // Its visibility ran out while this worker still scans it: keep the newest handle.
          stats.overlapping++;
          running.set(id, message.ReceiptHandle ?? '');
          errorLog(
            `scanner worker: message ${id} came back while its scan still runs ` +
              '(the scan is slower than the visibility timeout; raise it)',
          );
          continue;
        }
        running.set(id, message.ReceiptHandle ?? '');
        try {
          await handle(message, scan);
        } finally {
          running.delete(id);
        }
      }
    }
  };

  return {
    get inFlight() {
      return running.size;
    },
    stats,
    async start() {
      if (state !== 'new') throw new Error('The scanner worker can be started once');
      handler = await (options.loadHandler ?? importScanner)();
      state = 'running';
      const scan = handler;
      loops = Array.from({ length: concurrency }, () => loop(scan));
    },
    async stop() {
      if (state === 'stopped' || state === 'stopping') return;
      const wasRunning = state === 'running';
      state = 'stopping';
      abort.abort();
      if (wasRunning) {
        let timer: NodeJS.Timeout | undefined;
        const gaveUp = await Promise.race([
          Promise.all(loops).then(() => false),
          new Promise<boolean>((done) => {
            timer = setTimeout(() => done(true), stopTimeoutMs);
          }),
        ]);
        clearTimeout(timer);
        if (gaveUp)
          errorLog(`scanner worker: ${running.size} scan(s) still running after ${stopTimeoutMs} ms`);
      }
      if (ownsClient) sqs.destroy();
      state = 'stopped';
    },
  };
}
