/**
 * Infrastructure contracts: the logical ids of the stateful resources are pinned (renaming one
 * makes CloudFormation replace it: a new, empty table or bucket, the old one retained or lost),
 * and the time a job may stay `running` is derived from the scanner's timeouts, not set by hand.
 */
import { Template } from 'aws-cdk-lib/assertions';
import { MAX_RECEIVE_COUNT } from '../../lib/constructs/scan-pipeline';
import { synthesize } from './support';

const { template, stack } = synthesize();
const resources = (template.toJSON() as { Resources: Record<string, { Type: string }> }).Resources;
const idsOf = (type: string) =>
  Object.entries(resources)
    .filter(([, r]) => r.Type === type)
    .map(([id]) => id)
    .sort();

describe('stateful resources keep their logical ids', () => {
  it('tables', () => {
    expect(idsOf('AWS::DynamoDB::Table')).toEqual([
      'StorageAdvisories58C5252F',
      'StorageJobs4C7573CB',
      'StoragePackagesB560F54E',
    ]);
  });
  it('the uploads bucket', () => {
    expect(idsOf('AWS::S3::Bucket')).toEqual(['PipelineUploads54BB0EE5']);
  });
  it('the API access-log group', () => {
    expect(idsOf('AWS::Logs::LogGroup')).toContain('ApiAccessLogs50B185DB');
  });
  it('the scan queues', () => {
    expect(idsOf('AWS::SQS::Queue')).toEqual([
      'PipelineScanDeadLetterQueue197BEC2B',
      'PipelineScanQueueBC2027C4',
    ]);
  });
});

describe('how long a job may stay running', () => {
  it('is every delivery’s visibility timeout plus the attempt, for each delivery before the dead-letter queue', () => {
    const queue = Template.fromJSON(template.toJSON()).findResources('AWS::SQS::Queue', {
      Properties: { RedrivePolicy: { maxReceiveCount: MAX_RECEIVE_COUNT } },
    });
    const visibility = (Object.values(queue)[0] as { Properties: { VisibilityTimeout: number } }).Properties
      .VisibilityTimeout;
    const scanner = Object.values(template.findResources('AWS::Lambda::Function')).find((f) =>
      String((f as { Properties: { Description?: string } }).Properties.Description ?? '').startsWith(
        'Scan queue consumer',
      ),
    ) as { Properties: { Timeout: number } };
    expect(stack.pipeline.staleRunningSeconds).toBe(
      (visibility + scanner.Properties.Timeout) * MAX_RECEIVE_COUNT,
    );
  });
  it('reaches the function that reports job status', () => {
    const getJob = stack.api.functions.get('GET /v1/scan/{job_id}')!;
    const fn = template.toJSON().Resources[stack.getLogicalId(getJob.node.defaultChild as never)] as {
      Properties: { Environment: { Variables: Record<string, string> } };
    };
    expect(Number(fn.Properties.Environment.Variables.STALE_RUNNING_SECONDS)).toBe(
      stack.pipeline.staleRunningSeconds,
    );
  });
});
