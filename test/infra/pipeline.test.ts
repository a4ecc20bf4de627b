import { Match } from 'aws-cdk-lib/assertions';
import { ROUTES } from '../../lambdas/routes';
import { ACTIVE_TTL_SECONDS } from '../../lambdas/shared/store/job-store';
import { MAX_RECEIVE_COUNT } from '../../lib/constructs/scan-pipeline';
import type { ServiceFunction } from '../../lib/constructs/service-function';
import { service, synthesize, type Synthesized } from './support';
import { arnOf, logicalId } from './template-paths';

const synthesized = service();
const { template, stack } = synthesized;
const { pipeline } = stack;

type Resource = { Properties: Record<string, unknown>; DeletionPolicy?: string };
const resource = (construct: Parameters<typeof logicalId>[0], from: Synthesized = synthesized): Resource =>
  from.template.toJSON().Resources[logicalId(construct)] as Resource;
const variables = (fn: ServiceFunction, from: Synthesized = synthesized) =>
  (resource(fn, from).Properties.Environment as { Variables: Record<string, unknown> }).Variables;

const queueId = logicalId(pipeline.queue);
const dlqId = logicalId(pipeline.deadLetterQueue);
const bucketId = logicalId(pipeline.uploadsBucket);
const scannerId = logicalId(pipeline.scanner);

describe('scan queue', () => {
  const queue = resource(pipeline.queue).Properties;
  const dlq = resource(pipeline.deadLetterQueue).Properties;

  it(`moves a message to the dead-letter queue after ${MAX_RECEIVE_COUNT} failed deliveries`, () => {
    expect(queue.RedrivePolicy).toEqual({ deadLetterTargetArn: arnOf(dlqId), maxReceiveCount: 3 });
    // The scanner knows which delivery is the last one, and fails the job on it.
    expect(variables(pipeline.scanner).MAX_RECEIVE_COUNT).toBe(String(MAX_RECEIVE_COUNT));
  });

  it('keeps dead letters 14 days, the most SQS allows, and has no redrive of its own', () => {
    expect(dlq.MessageRetentionPeriod).toBe(14 * 24 * 3600);
    expect(dlq.RedrivePolicy).toBeUndefined();
  });

  it('hides a message being scanned for at least 6 times the scanner timeout (plus batching window)', () => {
    const timeout = resource(pipeline.scanner).Properties.Timeout as number;
    const mapping = Object.values(template.findResources('AWS::Lambda::EventSourceMapping'))[0] as Resource;
    const window = mapping.Properties.MaximumBatchingWindowInSeconds as number;
    expect(queue.VisibilityTimeout).toBeGreaterThanOrEqual(6 * (timeout + window));
  });

  it('lets a job stop being joined before its message can reach the dead-letter queue', () => {
    // Receives of one message are at least a visibility timeout apart, so the last one comes after
    // the job's de-duplication marker (written before the first) has expired: a request made once
    // a dead last attempt's message is in the DLQ starts a new job (docs/infrastructure.md).
    expect((MAX_RECEIVE_COUNT - 1) * (queue.VisibilityTimeout as number)).toBeGreaterThan(ACTIVE_TTL_SECONDS);
  });

  it.each([
    ['scan queue', queueId],
    ['dead-letter queue', dlqId],
  ])('%s is encrypted at rest and refuses requests without TLS', (_name, id) => {
    expect((template.toJSON().Resources[id] as Resource).Properties.SqsManagedSseEnabled).toBe(true);
    template.hasResourceProperties('AWS::SQS::QueuePolicy', {
      Queues: [{ Ref: id }],
      PolicyDocument: {
        Statement: Match.arrayWith([
          {
            Effect: 'Deny',
            Principal: { AWS: '*' },
            Action: 'sqs:*',
            Resource: arnOf(id),
            Condition: { Bool: { 'aws:SecureTransport': 'false' } },
          },
        ]),
      },
    });
  });
});

describe('scanner', () => {
  const scanner = resource(pipeline.scanner).Properties;

  it('consumes the scan queue in small batches, reporting failed records one by one', () => {
    template.resourceCountIs('AWS::Lambda::EventSourceMapping', 1);
    template.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
      EventSourceArn: arnOf(queueId),
      FunctionName: { Ref: scannerId },
      FunctionResponseTypes: ['ReportBatchItemFailures'],
      BatchSize: Match.anyValue(),
      MaximumBatchingWindowInSeconds: Match.anyValue(),
    });
    const mapping = Object.values(template.findResources('AWS::Lambda::EventSourceMapping'))[0] as Resource;
    expect(mapping.Properties.BatchSize).toBeLessThanOrEqual(5);
    expect(mapping.Properties.MaximumBatchingWindowInSeconds).toBeGreaterThan(0);
  });

  it('runs at most scannerConcurrency instances (4), and the poller starts no more than that', () => {
    expect(scanner.ReservedConcurrentExecutions).toBe(4);
    template.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
      ScalingConfig: { MaximumConcurrency: 4 },
    });
  });

  it('has the memory and time a package scan needs, and no VPC (it reads the public registry)', () => {
    expect(scanner.MemorySize).toBe(2048);
    expect(scanner.Timeout).toBe(300);
    expect(scanner.VpcConfig).toBeUndefined();
  });

  it('writes no registry or download-count URL unless one is configured', () => {
    expect(variables(pipeline.scanner).NPM_REGISTRY_URL).toBeUndefined();
    expect(variables(pipeline.scanner).DOWNLOADS_API_URL).toBeUndefined();
    // No package-registry URL of any kind in the template: the client library's default applies.
    expect(JSON.stringify(template.toJSON())).not.toMatch(/https?:\/\/[^"]*\bnpm/i);
  });
});

describe('uploads bucket', () => {
  const bucket = resource(pipeline.uploadsBucket);

  it('blocks every kind of public access and disables ACLs', () => {
    expect(bucket.Properties).toMatchObject({
      PublicAccessBlockConfiguration: {
        BlockPublicAcls: true,
        BlockPublicPolicy: true,
        IgnorePublicAcls: true,
        RestrictPublicBuckets: true,
      },
      OwnershipControls: { Rules: [{ ObjectOwnership: 'BucketOwnerEnforced' }] },
    });
  });

  it('encrypts objects at rest', () => {
    expect(bucket.Properties.BucketEncryption).toEqual({
      ServerSideEncryptionConfiguration: [{ ServerSideEncryptionByDefault: { SSEAlgorithm: 'AES256' } }],
    });
  });

  it('refuses requests without TLS, on the bucket and its objects', () => {
    template.hasResourceProperties('AWS::S3::BucketPolicy', {
      Bucket: { Ref: bucketId },
      PolicyDocument: {
        Statement: Match.arrayWith([
          {
            Effect: 'Deny',
            Principal: { AWS: '*' },
            Action: 's3:*',
            Resource: [arnOf(bucketId), { 'Fn::Join': ['', [arnOf(bucketId), '/*']] }],
            Condition: { Bool: { 'aws:SecureTransport': 'false' } },
          },
        ]),
      },
    });
  });

  it('deletes uploads after a few days and abandoned multipart uploads after one', () => {
    const rules = (bucket.Properties.LifecycleConfiguration as { Rules: Array<Record<string, unknown>> })
      .Rules;
    const expiry = rules.find((r) => r.Prefix === 'uploads/' && r.ExpirationInDays !== undefined);
    expect(expiry).toMatchObject({ Status: 'Enabled' });
    expect(expiry?.ExpirationInDays).toBeLessThanOrEqual(7);
    expect(rules).toContainEqual(
      expect.objectContaining({
        Status: 'Enabled',
        AbortIncompleteMultipartUpload: { DaysAfterInitiation: 1 },
      }),
    );
  });

  it('lets a browser PUT to a presigned URL from any origin, and nothing else cross-origin', () => {
    expect(bucket.Properties.CorsConfiguration).toEqual({
      CorsRules: [expect.objectContaining({ AllowedMethods: ['PUT'], AllowedOrigins: ['*'] })],
    });
  });

  it('calls upload-received for each object created under uploads/', () => {
    template.hasResourceProperties('Custom::S3BucketNotifications', {
      BucketName: { Ref: bucketId },
      NotificationConfiguration: {
        LambdaFunctionConfigurations: [
          {
            Events: ['s3:ObjectCreated:*'],
            Filter: { Key: { FilterRules: [{ Name: 'prefix', Value: 'uploads/' }] } },
            LambdaFunctionArn: arnOf(logicalId(pipeline.uploadReceived)),
          },
        ],
      },
    });
    template.hasResourceProperties('AWS::Lambda::Permission', {
      Action: 'lambda:InvokeFunction',
      FunctionName: arnOf(logicalId(pipeline.uploadReceived)),
      Principal: 's3.amazonaws.com',
      SourceArn: arnOf(bucketId),
    });
  });
});

describe('advisory sync', () => {
  it('runs once a day', () => {
    template.hasResourceProperties('AWS::Events::Rule', {
      State: 'ENABLED',
      ScheduleExpression: Match.stringLikeRegexp('^cron\\(\\d+ \\d+ \\* \\* \\? \\*\\)$'),
      Targets: [Match.objectLike({ Arn: arnOf(logicalId(pipeline.advisorySync)) })],
    });
    template.hasResourceProperties('AWS::Lambda::Permission', {
      FunctionName: arnOf(logicalId(pipeline.advisorySync)),
      Principal: 'events.amazonaws.com',
      SourceArn: arnOf(logicalId(pipeline.advisorySyncSchedule)),
    });
  });

  it('has the 15 minutes and the memory to stream the OSV export', () => {
    expect(resource(pipeline.advisorySync).Properties).toMatchObject({
      Timeout: 900,
      MemorySize: 1769,
      ReservedConcurrentExecutions: 1,
    });
  });
});

describe('downloads refresh', () => {
  it('runs every hour, one at a time, with 15 minutes per run', () => {
    template.hasResourceProperties('AWS::Events::Rule', {
      State: 'ENABLED',
      ScheduleExpression: Match.stringLikeRegexp('^cron\\(\\d+ \\* \\* \\* \\? \\*\\)$'),
      Targets: [Match.objectLike({ Arn: arnOf(logicalId(pipeline.downloadsRefresh)) })],
    });
    expect(resource(pipeline.downloadsRefresh).Properties).toMatchObject({
      Timeout: 900,
      ReservedConcurrentExecutions: 1,
    });
  });
});

describe('alarms', () => {
  const alarms = Object.values(template.findResources('AWS::CloudWatch::Alarm')) as Resource[];
  const alarmOn = (namespace: string, metric: string, dimension: unknown) =>
    alarms.filter(
      (a) =>
        a.Properties.Namespace === namespace &&
        a.Properties.MetricName === metric &&
        JSON.stringify(a.Properties.Dimensions).includes(JSON.stringify(dimension)),
    );

  it('fires as soon as one message is in the dead-letter queue', () => {
    const [alarm] = alarmOn('AWS/SQS', 'ApproximateNumberOfMessagesVisible', {
      'Fn::GetAtt': [dlqId, 'QueueName'],
    });
    expect(alarm?.Properties).toMatchObject({
      ComparisonOperator: 'GreaterThanOrEqualToThreshold',
      Threshold: 1,
      EvaluationPeriods: 1,
    });
  });

  it('fires when the scanner crashes or times out', () => {
    const [alarm] = alarmOn('AWS/Lambda', 'Errors', { Ref: scannerId });
    expect(alarm?.Properties).toMatchObject({ Statistic: 'Sum', Threshold: 1 });
  });

  it('fires when the oldest scan message waits too long', () => {
    const [alarm] = alarmOn('AWS/SQS', 'ApproximateAgeOfOldestMessage', {
      'Fn::GetAtt': [queueId, 'QueueName'],
    });
    expect(alarm?.Properties).toMatchObject({ Statistic: 'Maximum' });
    // Above the visibility timeout, so one ordinary retry does not raise it.
    expect(alarm?.Properties.Threshold).toBeGreaterThan(
      resource(pipeline.queue).Properties.VisibilityTimeout as number,
    );
  });

  it('fires when the advisory sync fails', () => {
    expect(alarmOn('AWS/Lambda', 'Errors', { Ref: logicalId(pipeline.advisorySync) })).toHaveLength(1);
  });

  it('stay quiet when there is no data (an idle queue is healthy)', () => {
    expect(alarms).toHaveLength(5);
    for (const alarm of alarms) expect(alarm.Properties.TreatMissingData).toBe('notBreaching');
    for (const alarm of alarms) expect(alarm.Properties.AlarmActions).toBeUndefined();
  });
});

describe('context parameters', () => {
  const topic = 'arn:aws:sns:eu-west-1:123456789012:pkgscan-alarms';
  const custom = synthesize({
    scannerConcurrency: '8',
    maxTarballBytes: '10485760',
    npmRegistryUrl: 'https://registry.example.test/',
    downloadsApiUrl: 'https://downloads.example.test/',
    osvExportUrl: 'https://osv.example.test/npm/all.zip',
    alarmTopicArn: topic,
  });
  const customPipeline = custom.stack.pipeline;

  it('scannerConcurrency sets the reserved concurrency, the poller maximum and the estimates', () => {
    expect(resource(customPipeline.scanner, custom).Properties.ReservedConcurrentExecutions).toBe(8);
    custom.template.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
      ScalingConfig: { MaximumConcurrency: 8 },
    });
    for (const route of ROUTES.filter((r) => r.queue)) {
      const fn = custom.stack.api.functions.get(`${route.method} ${route.path}`) as ServiceFunction;
      expect(variables(fn, custom).SCANNER_CONCURRENCY).toBe('8');
    }
  });

  it('maxTarballBytes reaches the scanner and the upload functions', () => {
    expect(variables(customPipeline.scanner, custom).MAX_TARBALL_BYTES).toBe('10485760');
    for (const route of ROUTES.filter((r) => r.uploads)) {
      const fn = custom.stack.api.functions.get(`${route.method} ${route.path}`) as ServiceFunction;
      expect(variables(fn, custom).MAX_TARBALL_BYTES).toBe('10485760');
    }
  });

  it('the registry, download-count and OSV URLs reach the function that reads each', () => {
    expect(variables(customPipeline.scanner, custom)).toMatchObject({
      NPM_REGISTRY_URL: 'https://registry.example.test/',
      DOWNLOADS_API_URL: 'https://downloads.example.test/',
    });
    expect(variables(customPipeline.advisorySync, custom).OSV_EXPORT_URL).toBe(
      'https://osv.example.test/npm/all.zip',
    );
    expect(variables(pipeline.advisorySync).OSV_EXPORT_URL).toBeUndefined();
  });

  it('alarmTopicArn makes every alarm notify the topic, on alarm and on recovery', () => {
    const alarms = Object.values(custom.template.findResources('AWS::CloudWatch::Alarm')) as Resource[];
    expect(alarms).toHaveLength(5);
    for (const alarm of alarms) {
      expect(alarm.Properties).toMatchObject({ AlarmActions: [topic], OKActions: [topic] });
    }
  });
});
