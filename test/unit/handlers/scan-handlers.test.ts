import { gzipSync } from 'node:zlib';
import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { GetQueueAttributesCommand, SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import {
  BatchGetCommand,
  DynamoDBDocumentClient,
  GetCommand,
  PutCommand,
  TransactWriteCommand,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { handler as getScanJob } from '../../../lambdas/handlers/get-scan-job';
import { handler as scanRequest } from '../../../lambdas/handlers/scan-request';
import { handler as scanTarball } from '../../../lambdas/handlers/scan-tarball';
import { handler as scanUploadUrl } from '../../../lambdas/handlers/scan-upload-url';
import { apiEvent, lambdaContext, parseBody } from '../../support/events';
import { expectMatchesOpenApi } from '../../support/openapi';
import { packageRecord } from '../../support/records';

const ddb = mockClient(DynamoDBDocumentClient);
const sqs = mockClient(SQSClient);
const s3 = mockClient(S3Client);
const JOB = '0b8c5e1a-5f0e-4a3b-8c1d-2e3f4a5b6c7d';

beforeEach(() => {
  ddb.reset();
  sqs.reset();
  s3.reset();
  ddb.on(BatchGetCommand).resolves({
    Responses: {
      'jobs-test': [
        { pk: 'DUR#0', ms: 4000 },
        { pk: 'DUR#1', ms: 6000 },
      ],
    },
  });
  sqs.on(GetQueueAttributesCommand).resolves({ Attributes: { ApproximateNumberOfMessages: '8' } });
  sqs.on(SendMessageCommand).resolves({ MessageId: 'm-1' });
});

const post = (body: unknown) =>
  scanRequest(apiEvent({ httpMethod: 'POST', body: JSON.stringify(body) }), lambdaContext);

describe('POST /v1/scan', () => {
  it('queues a job and answers 202 with an estimate from real durations and queue depth', async () => {
    ddb.on(TransactWriteCommand).resolves({});
    const res = await post({ name: '@types/node', version: '22.1.0' });
    expect(res.statusCode).toBe(202);
    const body = parseBody(res) as { job_id: string; estimated_seconds: number };
    expectMatchesOpenApi('post', '/v1/scan', 202, body, { headers: res.headers as Record<string, string> });
    expect(res.headers?.location).toBe(`/v1/scan/${body.job_id}`);
    // median 5 s, 8 queued ahead of 4 scanners: 3 rounds.
    expect(body.estimated_seconds).toBe(15);
    const sent = JSON.parse(sqs.commandCalls(SendMessageCommand)[0]!.args[0].input.MessageBody!);
    expect(sent).toEqual({
      job_id: body.job_id,
      source: 'registry',
      name: '@types/node',
      version: '22.1.0',
      registry: 'npm',
    });
  });

  it('returns the job already queued for the same name@version instead of a second one', async () => {
    ddb
      .on(TransactWriteCommand)
      .rejects(new TransactionCanceledException({ message: 'cancelled', $metadata: {} }));
    ddb.on(GetCommand, { Key: { pk: 'ACTIVE#left-pad@latest' } }).resolves({ Item: { job_id: JOB } });
    ddb.on(GetCommand, { Key: { pk: `JOB#${JOB}` } }).resolves({
      Item: {
        pk: `JOB#${JOB}`,
        job_id: JOB,
        status: 'running',
        source: 'registry',
        name: 'left-pad',
        version: 'latest',
        registry: 'npm',
        created_at: '2026-11-22T10:00:00.000Z',
        updated_at: '2026-11-22T10:00:01.000Z',
      },
    });
    const res = await post({ name: 'left-pad' });
    expect(res.statusCode).toBe(202);
    expect((parseBody(res) as { job_id: string }).job_id).toBe(JOB);
    expect(sqs.commandCalls(SendMessageCommand)).toHaveLength(0);
  });

  it('fails the job when its message cannot be sent, so it never waits forever', async () => {
    ddb.on(TransactWriteCommand).resolves({});
    ddb.on(UpdateCommand).resolves({ Attributes: {} });
    sqs.on(SendMessageCommand).rejects(new Error('SQS down'));
    const res = await post({ name: 'left-pad' });
    expect(res.statusCode).toBe(500);
    const update = ddb.commandCalls(UpdateCommand)[0]!.args[0].input;
    expect(update.ExpressionAttributeValues).toMatchObject({ ':status': 'failed' });
  });

  it.each([
    [{}, /name/],
    [{ name: 'Bad Name!' }, /name is not a valid npm package name/],
    [{ name: 'left-pad', version: '^1.0.0' }, /version/],
    [{ name: 'left-pad', registry: 'pypi' }, /supported: npm/],
    [{ name: 'left-pad', extra: 1 }, /extra|Unrecognized/],
  ])('is 400 for %j', async (body, message) => {
    const res = await post(body);
    expect(res.statusCode).toBe(400);
    expect((parseBody(res) as { error: string }).error).toMatch(message);
    expect(ddb.commandCalls(TransactWriteCommand)).toHaveLength(0);
  });
});

describe('GET /v1/scan/{job_id}', () => {
  const jobItem = (extra: Record<string, unknown>) => ({
    pk: `JOB#${JOB}`,
    job_id: JOB,
    source: 'registry',
    name: 'left-pad',
    version: '1.3.0',
    registry: 'npm',
    created_at: new Date().toISOString(),
    updated_at: new Date().toISOString(),
    s3_key: 'uploads/x.tgz',
    ...extra,
  });

  it('shows a completed job with its result (and never the storage key)', async () => {
    const result = packageRecord({ name: 'left-pad', version: '1.3.0' });
    ddb
      .on(GetCommand)
      .resolves({ Item: jobItem({ status: 'completed', result: gzipSync(JSON.stringify(result)) }) });
    const res = await getScanJob(apiEvent({ pathParameters: { job_id: JOB } }), lambdaContext);
    expect(res.statusCode).toBe(200);
    const body = parseBody(res) as Record<string, unknown>;
    expectMatchesOpenApi('get', '/v1/scan/{job_id}', 200, body);
    expect(body.result).toEqual(result);
    expect(body).not.toHaveProperty('s3_key');
  });

  it.each([
    [
      'a presigned upload that never arrived',
      { status: 'queued', awaiting_upload: true },
      2,
      /never uploaded/,
    ],
    ['a job whose sender died before queueing it', { status: 'queued' }, 1, /never queued/],
    ['a job whose message was lost', { status: 'queued', sent: true }, 5 * 24, /never started/],
    ['a job whose last attempt died', { status: 'running' }, 3, /abandoned/],
  ])('reports %s as failed', async (_label, state, hoursAgo, reason) => {
    const old = new Date(Date.now() - hoursAgo * 3_600_000).toISOString();
    ddb
      .on(GetCommand)
      .resolvesOnce({ Item: jobItem({ ...state, created_at: old, updated_at: old }) })
      .resolves({ Item: jobItem({ status: 'failed', created_at: old, error: 'stored reason' }) });
    ddb.on(UpdateCommand).resolves({ Attributes: {} });
    const res = await getScanJob(apiEvent({ pathParameters: { job_id: JOB } }), lambdaContext);
    expect(parseBody(res)).toMatchObject({ status: 'failed' });
    const update = ddb.commandCalls(UpdateCommand)[0]!.args[0].input;
    expect(String(update.ExpressionAttributeValues?.[':error'])).toMatch(reason);
  });

  it('leaves a queued job alone while its message waits (even a long wait) or is being sent', async () => {
    ddb.on(GetCommand).resolves({ Item: jobItem({ status: 'queued' }) });
    expect(
      parseBody(await getScanJob(apiEvent({ pathParameters: { job_id: JOB } }), lambdaContext)),
    ).toMatchObject({
      status: 'queued',
    });
    const hoursAgo = new Date(Date.now() - 5 * 3_600_000).toISOString();
    ddb.on(GetCommand).resolves({ Item: jobItem({ status: 'queued', sent: true, created_at: hoursAgo }) });
    const res = await getScanJob(apiEvent({ pathParameters: { job_id: JOB } }), lambdaContext);
    expect(parseBody(res)).toMatchObject({ status: 'queued' });
    expect(ddb.commandCalls(UpdateCommand)).toHaveLength(0);
  });

  it('is 400 for a non-UUID and 404 for an unknown job', async () => {
    ddb.on(GetCommand).resolves({});
    const bad = await getScanJob(apiEvent({ pathParameters: { job_id: 'nope' } }), lambdaContext);
    const unknown = await getScanJob(apiEvent({ pathParameters: { job_id: JOB } }), lambdaContext);
    expect(bad.statusCode).toBe(400);
    expect(unknown.statusCode).toBe(404);
    expectMatchesOpenApi('get', '/v1/scan/{job_id}', 404, parseBody(unknown));
  });
});

describe('POST /v1/scan/tarball', () => {
  const BOUNDARY = 'xyz';
  const multipart = (data: Buffer) =>
    Buffer.concat([
      Buffer.from(
        `--${BOUNDARY}\r\nContent-Disposition: form-data; name="tarball"; filename="pkg.tgz"\r\nContent-Type: application/gzip\r\n\r\n`,
      ),
      data,
      Buffer.from(`\r\n--${BOUNDARY}--\r\n`),
    ]);
  const upload = (data: Buffer, contentType = `multipart/form-data; boundary=${BOUNDARY}`) =>
    scanTarball(
      apiEvent({
        httpMethod: 'POST',
        headers: { 'Content-Type': contentType },
        body: multipart(data).toString('base64'),
        isBase64Encoded: true,
      }),
      lambdaContext,
    );

  it('streams the file to S3 under the job id, then queues a private tarball job', async () => {
    s3.on(PutObjectCommand).resolves({});
    ddb.on(PutCommand).resolves({});
    const tgz = gzipSync(Buffer.from('package contents'));
    const res = await upload(tgz);
    expect(res.statusCode).toBe(202);
    const { job_id } = parseBody(res) as { job_id: string };
    const put = s3.commandCalls(PutObjectCommand)[0]!.args[0].input;
    expect(put).toMatchObject({
      Bucket: 'uploads-test',
      Key: `uploads/${job_id}.tgz`,
      ContentLength: tgz.length,
    });
    const message = JSON.parse(sqs.commandCalls(SendMessageCommand)[0]!.args[0].input.MessageBody!);
    expect(message).toMatchObject({ job_id, source: 'tarball', s3_key: `uploads/${job_id}.tgz` });
  });

  it('creates the job before its object, so the upload notification finds it queued', async () => {
    const order: string[] = [];
    ddb.on(PutCommand).callsFake(() => {
      order.push('job');
      return {};
    });
    s3.on(PutObjectCommand).callsFake(() => {
      order.push('object');
      return {};
    });
    const res = await upload(gzipSync(Buffer.from('package contents')));
    expect(res.statusCode).toBe(202);
    expect(order).toEqual(['job', 'object']);
  });

  it('fails the job when its object cannot be stored, and answers 500', async () => {
    ddb.on(PutCommand).resolves({});
    ddb.on(UpdateCommand).resolves({});
    s3.on(PutObjectCommand).rejects(new Error('S3 is down'));
    const res = await upload(gzipSync(Buffer.from('package contents')));
    expect(res.statusCode).toBe(500);
    const failed = ddb.commandCalls(UpdateCommand).map((call) => call.args[0].input);
    expect(failed).toEqual([
      expect.objectContaining({
        ExpressionAttributeValues: expect.objectContaining({ ':status': 'failed' }) as unknown,
      }),
    ]);
    expect(sqs.commandCalls(SendMessageCommand)).toHaveLength(0);
  });

  it('refuses non-gzip data before storing anything', async () => {
    const res = await upload(Buffer.from('just text'));
    expect(res.statusCode).toBe(400);
    expect(s3.calls()).toHaveLength(0);
    expectMatchesOpenApi('post', '/v1/scan/tarball', 400, parseBody(res));
  });

  it('is 415 for a JSON body', async () => {
    const res = await upload(gzipSync('x'), 'application/json');
    expect(res.statusCode).toBe(415);
  });
});

describe('POST /v1/scan/upload-url', () => {
  it('creates a waiting job and a presigned PUT for its object', async () => {
    ddb.on(PutCommand).resolves({});
    const res = await scanUploadUrl(apiEvent({ httpMethod: 'POST' }), lambdaContext);
    expect(res.statusCode).toBe(201);
    const body = parseBody(res) as { job_id: string; upload_url: string };
    expectMatchesOpenApi('post', '/v1/scan/upload-url', 201, body, {
      headers: res.headers as Record<string, string>,
    });
    expect(body.upload_url).toContain(`uploads/${body.job_id}.tgz`);
    expect(body.upload_url).toContain('X-Amz-Signature=');
  });
});
