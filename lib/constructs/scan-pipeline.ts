/**
 * The asynchronous side of the service: the scan queue and its dead-letter queue, the uploads
 * bucket, the scanner that consumes the queue, the function that queues a presigned upload once it
 * lands, the daily advisory sync, and the alarms that say when any of it is stuck.
 *
 * API functions get at the queue and the bucket only through `bindQueue` and `bindUploads`, which
 * set the environment variable and the least grant together (as `Storage.bindTable` does).
 */
import { Duration, RemovalPolicy, Stack } from 'aws-cdk-lib';
import {
  Alarm,
  ComparisonOperator,
  TreatMissingData,
  type IAlarmAction,
  type IMetric,
} from 'aws-cdk-lib/aws-cloudwatch';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import { Rule, Schedule } from 'aws-cdk-lib/aws-events';
import { LambdaFunction as LambdaTarget } from 'aws-cdk-lib/aws-events-targets';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import type { Function as LambdaFunction } from 'aws-cdk-lib/aws-lambda';
import { SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import { RetentionDays } from 'aws-cdk-lib/aws-logs';
import {
  BlockPublicAccess,
  Bucket,
  BucketEncryption,
  CfnBucket,
  EventType,
  HttpMethods,
  ObjectOwnership,
} from 'aws-cdk-lib/aws-s3';
import { LambdaDestination } from 'aws-cdk-lib/aws-s3-notifications';
import { Topic } from 'aws-cdk-lib/aws-sns';
import { Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { serviceNameOf } from '../../lambdas/shared/observability';
import { MAX_RECEIVE_COUNT } from '../../lambdas/shared/queue/delivery';
import { ADVISORIES_TABLE, JOBS_TABLE, PACKAGES_TABLE } from '../../lambdas/shared/store/tables';
import { acceptNagFinding } from '../nag';
import { handlerEntry, HANDLERS_DIR } from '../paths';
import { ServiceFunction } from './service-function';
import type { Storage } from './storage';

/** Key prefix of uploaded tarballs (lambdas/shared/uploads/upload-store.ts: `uploads/<job id>.tgz`). */
export const UPLOADS_PREFIX = 'uploads/';

export { MAX_RECEIVE_COUNT };

/** Entry files (lambdas/handlers/<name>.ts) of the pipeline's functions, and what invokes each. */
export const PIPELINE_HANDLERS = {
  scanner: { handler: 'scanner', trigger: 'SQS scan queue' },
  uploadReceived: { handler: 'upload-received', trigger: 'S3 ObjectCreated uploads/' },
  advisorySync: { handler: 'advisory-sync', trigger: 'EventBridge daily schedule' },
  downloadsRefresh: {
    handler: 'downloads-refresh',
    trigger: 'EventBridge hourly schedule (one pass a day, resumed across runs)',
  },
} as const;

/** What a function may do with the uploads bucket. */
export type UploadsAccess = 'write' | 'read';

export interface ScanPipelineProps {
  /** Tables the pipeline's functions are bound to. */
  readonly storage: Storage;
  /** Folder of the `<handler>.ts` entry files. @default lambdas/handlers */
  readonly handlersDir?: string;
  /** Retention of the functions' logs. @default RetentionDays.ONE_MONTH */
  readonly logRetention?: RetentionDays;
  /**
   * Scanner instances at most: its reserved concurrency and the event source's maximum concurrency
   * (2 to 1000).
   * @default 4
   */
  readonly scannerConcurrency?: number;
  /** Largest tarball the scanner fetches or reads from an upload. @default 64 MiB */
  readonly maxTarballBytes?: number;
  /** npm registry override. @default - npm's client default (no URL is written) */
  readonly npmRegistryUrl?: string;
  /**
   * Download-count service override (`off`: none, the offline table only).
   * @default - query-registry's default (npm's download-count API)
   */
  readonly downloadsApiUrl?: string;
  /** OSV export the advisory sync reads. @default - the sync's own default (OSV's npm export) */
  readonly osvExportUrl?: string;
  /** SNS topic every alarm notifies. @default - none: alarms only change state */
  readonly alarmTopicArn?: string;
  /**
   * Age of the oldest scan message that raises the backlog alarm. A message whose scan failed
   * waits out the visibility timeout (30 min) before its retry, so a lower value would fire on
   * ordinary retries.
   * @default Duration.hours(1)
   */
  readonly queueAgeAlarmThreshold?: Duration;
}

export class ScanPipeline extends Construct {
  /** Scan jobs, one message each (lambdas/shared/queue/scan-queue.ts). */
  public readonly queue: Queue;
  /** How long a job may stay `running` before it is reported abandoned (derived from the timeouts). */
  public readonly staleRunningSeconds: number;
  /** Messages that failed `MAX_RECEIVE_COUNT` deliveries. */
  public readonly deadLetterQueue: Queue;
  /** Uploaded tarballs under `uploads/`, deleted after a few days. */
  public readonly uploadsBucket: Bucket;
  /** Consumes the scan queue. */
  public readonly scanner: ServiceFunction;
  /** Queues the job of a presigned upload when its object lands. */
  public readonly uploadReceived: ServiceFunction;
  /** Imports OSV advisories once a day. */
  public readonly advisorySync: ServiceFunction;
  /** The daily schedule of the advisory sync. */
  public readonly advisorySyncSchedule: Rule;
  /** Refreshes weekly downloads, trust and list order of stored packages once a day. */
  public readonly downloadsRefresh: ServiceFunction;
  /** The hourly schedule of the downloads refresh (a pass a day, resumed across runs). */
  public readonly downloadsRefreshSchedule: Rule;
  /** Dead letters, scanner errors, queue backlog, advisory sync errors. */
  public readonly alarms: readonly Alarm[];

  private readonly scannerConcurrency: number;
  private readonly maxTarballBytes: number;

  constructor(scope: Construct, id: string, props: ScanPipelineProps) {
    super(scope, id);
    const handlersDir = props.handlersDir ?? HANDLERS_DIR;
    const logRetention = props.logRetention ?? RetentionDays.ONE_MONTH;
    this.scannerConcurrency = props.scannerConcurrency ?? 4;
    this.maxTarballBytes = props.maxTarballBytes ?? 64 * 1024 * 1024;
    if (!Number.isInteger(this.scannerConcurrency) || this.scannerConcurrency < 2) {
      throw new Error(`scannerConcurrency must be an integer of at least 2, not ${this.scannerConcurrency}`);
    }

    // --- Queues ---------------------------------------------------------------------------------
    const scannerTimeout = Duration.minutes(5);
    const batchingWindow = Duration.seconds(2);

    this.deadLetterQueue = new Queue(this, 'ScanDeadLetterQueue', {
      encryption: QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      // The longest SQS keeps a message: time to look at it and redrive it after a fix.
      retentionPeriod: Duration.days(14),
    });
    const visibilityTimeout = Duration.seconds(6 * scannerTimeout.plus(batchingWindow).toSeconds());
    // A job stays `running` while some attempt may still report: every delivery's visibility
    // timeout plus the attempt itself, for each of the deliveries before the dead-letter queue.
    this.staleRunningSeconds =
      (visibilityTimeout.toSeconds() + scannerTimeout.toSeconds()) * MAX_RECEIVE_COUNT;
    this.queue = new Queue(this, 'ScanQueue', {
      encryption: QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      // Lambda's advice for SQS event sources: six times the function timeout plus the batching
      // window, so a message being scanned (or retried after a throttle) is not handed out twice.
      visibilityTimeout,
      retentionPeriod: Duration.days(4),
      deadLetterQueue: { queue: this.deadLetterQueue, maxReceiveCount: MAX_RECEIVE_COUNT },
    });

    // --- Uploads bucket ---------------------------------------------------------------------------
    this.uploadsBucket = new Bucket(this, 'Uploads', {
      blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
      objectOwnership: ObjectOwnership.BUCKET_OWNER_ENFORCED,
      encryption: BucketEncryption.S3_MANAGED,
      enforceSSL: true,
      minimumTLSVersion: 1.2,
      versioned: false,
      lifecycleRules: [
        // Tarballs are needed until their scan ends (minutes); the rest is a margin for retries.
        { id: 'ExpireUploads', prefix: UPLOADS_PREFIX, expiration: Duration.days(3) },
        { id: 'AbortIncompleteMultipartUploads', abortIncompleteMultipartUploadAfter: Duration.days(1) },
      ],
      cors: [
        {
          // A browser page PUTs the tarball to the presigned URL from POST /v1/scan/upload-url.
          allowedMethods: [HttpMethods.PUT],
          allowedOrigins: ['*'],
          allowedHeaders: ['*'],
          exposedHeaders: ['ETag'],
          maxAge: 3600,
        },
      ],
      // Uploads are transient; the lifecycle rule empties a bucket the stack leaves behind.
      removalPolicy: RemovalPolicy.RETAIN,
    });

    // --- Functions --------------------------------------------------------------------------------
    const { storage } = props;

    this.scanner = new ServiceFunction(this, 'Scanner', {
      entry: handlerEntry(PIPELINE_HANDLERS.scanner.handler, handlersDir),
      serviceName: serviceNameOf(PIPELINE_HANDLERS.scanner.handler),
      description: 'Scan queue consumer: fetches, analyses and stores one package per message',
      // Analysis is CPU-bound (CPU scales with memory) and holds the tarball in memory.
      memorySize: 2048,
      timeout: scannerTimeout,
      reservedConcurrentExecutions: this.scannerConcurrency,
      logRetention,
      environment: {
        MAX_RECEIVE_COUNT: String(MAX_RECEIVE_COUNT),
        MAX_TARBALL_BYTES: String(this.maxTarballBytes),
        ...(props.npmRegistryUrl ? { NPM_REGISTRY_URL: props.npmRegistryUrl } : {}),
        ...(props.downloadsApiUrl ? { DOWNLOADS_API_URL: props.downloadsApiUrl } : {}),
      },
      withDownloadSnapshot: true,
    });
    storage.bindTable(this.scanner, PACKAGES_TABLE, 'RW');
    storage.bindTable(this.scanner, JOBS_TABLE, 'RW');
    storage.bindTable(this.scanner, ADVISORIES_TABLE, 'RO');
    this.bindUploads(this.scanner, 'read');
    this.scanner.addEventSource(
      new SqsEventSource(this.queue, {
        // Records of a batch are scanned in parallel; a small batch keeps one slow package from
        // holding many others, and failed records are retried alone (partial batch responses).
        batchSize: 2,
        maxBatchingWindow: batchingWindow,
        reportBatchItemFailures: true,
        // The poller never starts more instances than are reserved, so messages are not throttled
        // back to the queue (which would spend their receive count).
        maxConcurrency: this.scannerConcurrency,
      }),
    );

    this.uploadReceived = new ServiceFunction(this, 'UploadReceived', {
      entry: handlerEntry(PIPELINE_HANDLERS.uploadReceived.handler, handlersDir),
      serviceName: serviceNameOf(PIPELINE_HANDLERS.uploadReceived.handler),
      description: 'S3 ObjectCreated on uploads/: queues the scan job the uploaded tarball belongs to',
      logRetention,
    });
    storage.bindTable(this.uploadReceived, JOBS_TABLE, 'RW');
    this.bindQueue(this.uploadReceived, 'send');
    this.uploadsBucket.addEventNotification(
      EventType.OBJECT_CREATED,
      new LambdaDestination(this.uploadReceived),
      { prefix: UPLOADS_PREFIX },
    );

    this.advisorySync = new ServiceFunction(this, 'AdvisorySync', {
      entry: handlerEntry(PIPELINE_HANDLERS.advisorySync.handler, handlersDir),
      serviceName: serviceNameOf(PIPELINE_HANDLERS.advisorySync.handler),
      description: 'Daily import of OSV advisories for npm; refreshes the stored results they change',
      // Streams a ~200 MB zip: 1769 MB is one full vCPU, for unzipping and parsing.
      memorySize: 1769,
      timeout: Duration.minutes(15),
      // One import at a time: the importer's unconditional batch writes of new records assume it.
      reservedConcurrentExecutions: 1,
      logRetention,
      environment: props.osvExportUrl ? { OSV_EXPORT_URL: props.osvExportUrl } : {},
    });
    storage.bindTable(this.advisorySync, ADVISORIES_TABLE, 'RW');
    storage.bindTable(this.advisorySync, PACKAGES_TABLE, 'RW');
    this.advisorySyncSchedule = new Rule(this, 'AdvisorySyncSchedule', {
      description: 'Runs the advisory sync once a day',
      schedule: Schedule.cron({ minute: '17', hour: '3' }),
      targets: [new LambdaTarget(this.advisorySync, { retryAttempts: 2 })],
    });

    this.downloadsRefresh = new ServiceFunction(this, 'DownloadsRefresh', {
      entry: handlerEntry(PIPELINE_HANDLERS.downloadsRefresh.handler, handlersDir),
      serviceName: serviceNameOf(PIPELINE_HANDLERS.downloadsRefresh.handler),
      description: 'Daily refresh of weekly downloads, trust scores and list order of stored packages',
      memorySize: 1024,
      timeout: Duration.minutes(15),
      // One pass at a time: its cursor is a single record.
      reservedConcurrentExecutions: 1,
      logRetention,
      environment: props.downloadsApiUrl ? { DOWNLOADS_API_URL: props.downloadsApiUrl } : {},
      withDownloadSnapshot: true,
    });
    storage.bindTable(this.downloadsRefresh, PACKAGES_TABLE, 'RW');
    this.downloadsRefreshSchedule = new Rule(this, 'DownloadsRefreshSchedule', {
      description: 'Runs the downloads refresh every hour (it does one pass a day)',
      schedule: Schedule.cron({ minute: '41' }),
      targets: [new LambdaTarget(this.downloadsRefresh, { retryAttempts: 2 })],
    });

    this.alarms = this.buildAlarms(props);
    this.acceptNagFindings();
  }

  /**
   * Gives `fn` the scan queue's URL in SCAN_QUEUE_URL (and the scanner concurrency the estimates
   * divide by, in SCANNER_CONCURRENCY) and sqs:SendMessage + sqs:GetQueueAttributes (queue depth)
   * on that queue only.
   */
  public bindQueue(fn: LambdaFunction, access: 'send'): void {
    if (access !== 'send') throw new Error(`Unknown queue access ${String(access)}`);
    fn.addEnvironment('SCAN_QUEUE_URL', this.queue.queueUrl);
    fn.addEnvironment('SCANNER_CONCURRENCY', String(this.scannerConcurrency));
    // SendMessage with GetQueueAttributes (the queue depth the estimates use) and GetQueueUrl.
    this.queue.grantSendMessages(fn);
  }

  /**
   * Gives `fn` the bucket's name in UPLOAD_BUCKET (and the tarball limit in MAX_TARBALL_BYTES) and
   * `write`: s3:PutObject (also what a presigned PUT is signed with), or `read`: s3:GetObject, on
   * `uploads/*` only. Nothing may list, delete or touch other keys.
   */
  public bindUploads(fn: LambdaFunction, access: UploadsAccess): void {
    fn.addEnvironment('UPLOAD_BUCKET', this.uploadsBucket.bucketName);
    fn.addEnvironment('MAX_TARBALL_BYTES', String(this.maxTarballBytes));
    fn.addToRolePolicy(
      new PolicyStatement({
        actions: [access === 'write' ? 's3:PutObject' : 's3:GetObject'],
        resources: [this.uploadsBucket.arnForObjects(`${UPLOADS_PREFIX}*`)],
      }),
    );
    if (fn.role) {
      const bucketId = Stack.of(this).getLogicalId(this.uploadsBucket.node.defaultChild as CfnBucket);
      acceptNagFinding(
        fn.role,
        `AwsSolutions-IAM5[Resource::<${bucketId}.Arn>/${UPLOADS_PREFIX}*]`,
        `Uploaded tarballs are named uploads/<job id>.tgz with job ids made at request time, so the ` +
          `grant (s3:${access === 'write' ? 'PutObject' : 'GetObject'} only) names the uploads/ ` +
          'prefix of this one bucket rather than single objects.',
      );
    }
  }

  private buildAlarms(props: ScanPipelineProps): Alarm[] {
    const fiveMinutes = Duration.minutes(5);
    const alarm = (id: string, metric: IMetric, threshold: number, description: string): Alarm =>
      new Alarm(this, id, {
        metric,
        threshold,
        evaluationPeriods: 1,
        comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
        treatMissingData: TreatMissingData.NOT_BREACHING,
        alarmDescription: description,
      });
    const queueAge = props.queueAgeAlarmThreshold ?? Duration.hours(1);
    const alarms = [
      alarm(
        'DeadLettersAlarm',
        this.deadLetterQueue.metricApproximateNumberOfMessagesVisible({
          period: fiveMinutes,
          statistic: 'Maximum',
        }),
        1,
        `Scan messages failed ${MAX_RECEIVE_COUNT} times and are in the dead-letter queue ` +
          '(their jobs are marked failed); look at the scanner logs, then redrive or purge.',
      ),
      alarm(
        'ScannerErrorsAlarm',
        this.scanner.metricErrors({ period: fiveMinutes, statistic: 'Sum' }),
        1,
        'The scanner function crashed or timed out (failed records alone are partial batch ' +
          'failures, not errors): the whole batch will be retried.',
      ),
      alarm(
        'QueueBacklogAlarm',
        this.queue.metricApproximateAgeOfOldestMessage({ period: fiveMinutes, statistic: 'Maximum' }),
        queueAge.toSeconds(),
        `A scan message has waited ${queueAge.toHumanString()} or more: the scanner is not keeping ` +
          'up (raise scannerConcurrency) or not consuming.',
      ),
      alarm(
        'AdvisorySyncErrorsAlarm',
        this.advisorySync.metricErrors({ period: Duration.days(1), statistic: 'Sum' }),
        1,
        'The daily advisory sync failed: CVE data may be stale; see its logs.',
      ),
      alarm(
        'DownloadsRefreshErrorsAlarm',
        this.downloadsRefresh.metricErrors({ period: Duration.days(1), statistic: 'Sum' }),
        3,
        'The downloads refresh failed three times in a day: download counts and trust scores are going stale.',
      ),
    ];
    if (props.alarmTopicArn) {
      const action: IAlarmAction = new SnsAction(Topic.fromTopicArn(this, 'AlarmTopic', props.alarmTopicArn));
      for (const a of alarms) {
        a.addAlarmAction(action);
        a.addOkAction(action);
      }
    }
    return alarms;
  }

  private acceptNagFindings(): void {
    acceptNagFinding(
      this.uploadsBucket,
      'AwsSolutions-S1',
      'No server access log for the uploads bucket: objects only arrive through PutObject by the ' +
        'upload function or a presigned URL issued to a job, and the API access log already ' +
        'records who asked for each job; the objects expire after 3 days.',
    );
    // CDK's singleton handler of the Custom::S3BucketNotifications resource (how CDK wires a bucket
    // notification to a function without a dependency cycle). Its own policy is scoped to this
    // bucket (s3:PutBucketNotification); only the managed policy for its logs is left.
    const handler = Stack.of(this).node.tryFindChild(
      'BucketNotificationsHandler050a0587b7544547bf325f094a3db834',
    );
    if (handler) {
      acceptNagFinding(
        handler,
        'AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole]',
        "CDK's own handler of the S3 bucket notification custom resource, which runs only during " +
          'deployments: aws-cdk-lib attaches AWSLambdaBasicExecutionRole (its logs) and offers no ' +
          'way to replace it; its other permission is s3:PutBucketNotification on this bucket only.',
      );
    }
  }
}
