/** API Gateway REST (v1) proxy events and Lambda contexts for handler unit tests. */
import type { APIGatewayProxyEvent, Context } from 'aws-lambda';

export function apiEvent(overrides: Partial<APIGatewayProxyEvent> = {}): APIGatewayProxyEvent {
  return {
    resource: '/',
    path: '/',
    httpMethod: 'GET',
    headers: {},
    multiValueHeaders: {},
    queryStringParameters: null,
    multiValueQueryStringParameters: null,
    pathParameters: null,
    stageVariables: null,
    body: null,
    isBase64Encoded: false,
    requestContext: {
      accountId: '123456789012',
      apiId: 'api',
      authorizer: null,
      protocol: 'HTTP/1.1',
      httpMethod: overrides.httpMethod ?? 'GET',
      identity: {} as APIGatewayProxyEvent['requestContext']['identity'],
      path: overrides.path ?? '/',
      stage: 'v1',
      requestId: 'req-1',
      requestTimeEpoch: 0,
      resourceId: 'r',
      resourcePath: overrides.resource ?? '/',
    },
    ...overrides,
  };
}

export const lambdaContext = {
  awsRequestId: 'test-request-id',
  functionName: 'test',
  functionVersion: '$LATEST',
  invokedFunctionArn: 'arn:aws:lambda:us-east-1:123456789012:function:test',
  memoryLimitInMB: '256',
  logGroupName: '/aws/lambda/test',
  logStreamName: 'stream',
  callbackWaitsForEmptyEventLoop: true,
  getRemainingTimeInMillis: () => 10_000,
  done: () => undefined,
  fail: () => undefined,
  succeed: () => undefined,
} as Context;

export function parseBody(result: { body: string }): unknown {
  return JSON.parse(result.body);
}
