/** The Lambda `Context` the local runtime hands to handlers (HTTP adapter, scanner worker, S3 notifications). */
import { randomBytes, randomUUID } from 'node:crypto';
import type { Context } from 'aws-lambda';

export const LOCAL_ACCOUNT = '000000000000';
export const LOCAL_LAMBDA_REGION = 'us-east-1';

export function lambdaContext(functionName: string, memoryLimitInMB: string, timeoutMs: number): Context {
  const deadline = Date.now() + timeoutMs;
  const now = new Date();
  const day = now.toISOString().slice(0, 10).replaceAll('-', '/');
  return {
    callbackWaitsForEmptyEventLoop: true,
    functionName,
    functionVersion: '$LATEST',
    invokedFunctionArn: `arn:aws:lambda:${LOCAL_LAMBDA_REGION}:${LOCAL_ACCOUNT}:function:${functionName}`,
    memoryLimitInMB,
    awsRequestId: randomUUID(),
    logGroupName: `/aws/lambda/${functionName}`,
    logStreamName: `${day}/[$LATEST]${randomBytes(16).toString('hex')}`,
    getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()),
    done: () => undefined,
    fail: () => undefined,
    succeed: () => undefined,
  };
}
