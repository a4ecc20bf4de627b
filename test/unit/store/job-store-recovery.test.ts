/**
 * The two job-store calls the local service's recovery uses (listUnfinished, requeue), against
 * a mocked DynamoDB document client: what they ask DynamoDB and how they read its answers.
 */
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand, ScanCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { JobStore } from '../../../lambdas/shared/store/job-store';

const ddb = mockClient(DynamoDBDocumentClient);
const NOW = new Date('2026-11-25T12:00:00Z');
const JOB = '3f2b8c1e-9d4a-4e7b-8a6c-1b2d3e4f5a6b';
const store = () => new JobStore(ddb as unknown as DynamoDBDocumentClient, 'jobs', () => NOW);
const conditionFailed = () => new ConditionalCheckFailedException({ message: 'failed', $metadata: {} });

const item = (fields: Record<string, unknown> = {}) => ({
  pk: `JOB#${JOB}`,
  job_id: JOB,
  status: 'running',
  source: 'registry',
  name: 'left-pad',
  version: '1.3.0',
  registry: 'npm',
  created_at: '2026-11-25T11:00:00.000Z',
  updated_at: '2026-11-25T11:01:00.000Z',
  sent: true,
  ...fields,
});

beforeEach(() => ddb.reset());

describe('listUnfinished', () => {
  it('scans every page for queued and running jobs, consistently and without results', async () => {
    const other = '4f2b8c1e-9d4a-4e7b-8a6c-1b2d3e4f5a6b';
    ddb
      .on(ScanCommand)
      .resolvesOnce({ Items: [item()], LastEvaluatedKey: { pk: `JOB#${JOB}` } })
      .resolvesOnce({ Items: [], LastEvaluatedKey: { pk: 'DUR#3' } })
      .resolvesOnce({
        Items: [
          item({
            pk: `JOB#${other}`,
            job_id: other,
            status: 'queued',
            source: 'tarball',
            s3_key: `uploads/${other}.tgz`,
            awaiting_upload: true,
            sent: undefined,
          }),
        ],
      });
    const jobs = await store().listUnfinished();
    expect(jobs).toEqual([
      {
        job_id: JOB,
        status: 'running',
        source: 'registry',
        name: 'left-pad',
        version: '1.3.0',
        registry: 'npm',
        created_at: '2026-11-25T11:00:00.000Z',
        updated_at: '2026-11-25T11:01:00.000Z',
        sent: true,
      },
      expect.objectContaining({
        job_id: other,
        status: 'queued',
        s3_key: `uploads/${other}.tgz`,
        awaiting_upload: true,
      }),
    ]);
    const calls = ddb.commandCalls(ScanCommand).map((call) => call.args[0].input);
    expect(calls).toHaveLength(3);
    expect(calls[1]?.ExclusiveStartKey).toEqual({ pk: `JOB#${JOB}` });
    expect(calls[2]?.ExclusiveStartKey).toEqual({ pk: 'DUR#3' });
    const input = calls[0]!;
    expect(input).toMatchObject({ TableName: 'jobs', ConsistentRead: true });
    expect(input.ExclusiveStartKey).toBeUndefined();
    expect(input.FilterExpression).toBe('begins_with(#pk, :job) AND #status IN (:queued, :running)');
    expect(input.ExpressionAttributeValues).toEqual({
      ':job': 'JOB#',
      ':queued': 'queued',
      ':running': 'running',
    });
    const projected = Object.values(input.ExpressionAttributeNames ?? {});
    expect(projected).toEqual(expect.arrayContaining(['status', 's3_key', 'awaiting_upload', 'sent']));
    expect(projected).not.toContain('result');
  });
});

describe('requeue', () => {
  it('puts the job back to queued and counts the re-queue, under the limit and only while unfinished', async () => {
    ddb.on(UpdateCommand).resolves({ Attributes: item({ status: 'queued', requeues: 2 }) });
    const outcome = await store().requeue(JOB, 3);
    expect(outcome).toEqual({
      outcome: 'requeued',
      requeues: 2,
      job: expect.objectContaining({ job_id: JOB, status: 'queued', name: 'left-pad' }),
    });
    const input = ddb.commandCalls(UpdateCommand)[0]!.args[0].input;
    expect(input.Key).toEqual({ pk: `JOB#${JOB}` });
    expect(input.UpdateExpression).toBe(
      'SET #s = :queued, updated_at = :now, requeues = if_not_exists(requeues, :zero) + :one',
    );
    expect(input.ConditionExpression).toBe(
      'attribute_exists(pk) AND #s IN (:queued, :running) AND (attribute_not_exists(requeues) OR requeues < :max)',
    );
    expect(input.ExpressionAttributeValues).toMatchObject({ ':max': 3, ':now': NOW.toISOString() });
    expect(ddb.commandCalls(GetCommand)).toHaveLength(0);
  });

  it('says exhausted when the limit is reached, finished when the job finished or is gone', async () => {
    ddb.on(UpdateCommand).rejects(conditionFailed());
    ddb
      .on(GetCommand)
      .resolvesOnce({ Item: item({ requeues: 3 }) })
      .resolvesOnce({ Item: item({ status: 'completed' }) })
      .resolvesOnce({});
    expect(await store().requeue(JOB, 3)).toEqual({
      outcome: 'exhausted',
      requeues: 3,
      job: expect.objectContaining({ job_id: JOB, status: 'running' }),
    });
    expect(await store().requeue(JOB, 3)).toEqual({ outcome: 'finished' });
    expect(await store().requeue(JOB, 3)).toEqual({ outcome: 'finished' });
    expect(ddb.commandCalls(GetCommand).every((call) => call.args[0].input.ConsistentRead === true)).toBe(
      true,
    );
  });

  it('with a limit of 0 only reads the job, and rethrows errors other than the condition', async () => {
    ddb.on(GetCommand).resolves({ Item: item({ status: 'queued' }) });
    expect(await store().requeue(JOB, 0)).toMatchObject({ outcome: 'exhausted', requeues: 0 });
    expect(ddb.commandCalls(UpdateCommand)).toHaveLength(0);
    ddb.on(UpdateCommand).rejects(new Error('throttled'));
    await expect(store().requeue(JOB, 1)).rejects.toThrow('throttled');
  });
});
