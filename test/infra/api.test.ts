import { Match } from 'aws-cdk-lib/assertions';
import { ROUTES, SCAN_ROUTES, UNKNOWN_ROUTE_MESSAGE } from '../../lambdas/routes';
import { service, synthesize } from './support';
import { apiResourceId, apiResourcePaths, functionIdByDescription } from './template-paths';

const { template } = service();

describe('routes', () => {
  it.each(ROUTES.map((r) => [`${r.method} ${r.path}`, r] as const))(
    '%s is a public method with a Lambda proxy integration to its own function',
    (key, route) => {
      const functionId = functionIdByDescription(template, key);
      template.hasResourceProperties('AWS::ApiGateway::Method', {
        HttpMethod: route.method,
        ResourceId: { Ref: apiResourceId(template, route.path) },
        AuthorizationType: 'NONE',
        Integration: {
          Type: 'AWS_PROXY',
          IntegrationHttpMethod: 'POST',
          Uri: { 'Fn::Join': ['', Match.arrayWith([{ 'Fn::GetAtt': [functionId, 'Arn'] }])] },
        },
      });
      // API Gateway may invoke the function for this method only.
      template.hasResourceProperties('AWS::Lambda::Permission', {
        Action: 'lambda:InvokeFunction',
        FunctionName: { 'Fn::GetAtt': [functionId, 'Arn'] },
        Principal: 'apigateway.amazonaws.com',
        SourceArn: {
          'Fn::Join': ['', Match.arrayWith([`/${route.method}${route.path.replace(/\{[^}]+\}/g, '*')}`])],
        },
      });
    },
  );

  it('has no method beyond the routes and their CORS preflights', () => {
    const methods = Object.values(template.findResources('AWS::ApiGateway::Method')).map(
      (m) => m.Properties.HttpMethod as string,
    );
    expect(methods.filter((m) => m !== 'OPTIONS')).toHaveLength(ROUTES.length);
    // One function per route; the others are the scan pipeline's and CDK's bucket-notification handler.
    const apiFunctions = Object.keys(template.findResources('AWS::Lambda::Function')).filter((id) =>
      id.startsWith('Api'),
    );
    expect(apiFunctions).toHaveLength(ROUTES.length);
  });

  it('serves the scan routes', () => {
    expect(ROUTES.map((r) => `${r.method} ${r.path}`)).toEqual(
      expect.arrayContaining(SCAN_ROUTES.map((r) => `${r.method} ${r.path}`)),
    );
  });

  it('puts every path under /v1 except /health', () => {
    const paths = [...apiResourcePaths(template).values()];
    expect(paths.filter((p) => !p.startsWith('/v1') && p !== '/health')).toEqual([]);
  });
});

describe('CORS', () => {
  const corsPaths = [...new Set(ROUTES.filter((r) => r.cors).map((r) => r.path))];

  it.each(corsPaths)('answers the preflight of %s without calling a function', (path) => {
    const methods = ROUTES.filter((r) => r.cors && r.path === path).map((r) => r.method);
    template.hasResourceProperties('AWS::ApiGateway::Method', {
      HttpMethod: 'OPTIONS',
      ResourceId: { Ref: apiResourceId(template, path) },
      Integration: {
        Type: 'MOCK',
        IntegrationResponses: [
          {
            StatusCode: '204',
            ResponseParameters: Match.objectLike({
              'method.response.header.Access-Control-Allow-Origin': "'*'",
              'method.response.header.Access-Control-Allow-Methods': `'${[...methods, 'OPTIONS'].join(',')}'`,
              'method.response.header.Access-Control-Allow-Headers': Match.stringLikeRegexp('Content-Type'),
            }),
          },
        ],
      },
    });
  });
});

describe('errors API Gateway answers by itself', () => {
  const responses = template.findResources('AWS::ApiGateway::GatewayResponse');
  const byType = new Map(
    Object.values(responses).map((r) => [r.Properties.ResponseType as string, r.Properties] as const),
  );
  const bodyOf = (type: string): unknown => {
    const templates = byType.get(type)?.ResponseTemplates as Record<string, string> | undefined;
    return JSON.parse(templates?.['application/json'] ?? 'null');
  };

  it.each([
    ['MISSING_AUTHENTICATION_TOKEN', '404'], // what a REST API answers for an unknown path or method
    ['RESOURCE_NOT_FOUND', '404'],
    ['THROTTLED', '429'],
    ['REQUEST_TOO_LARGE', '413'],
    ['UNSUPPORTED_MEDIA_TYPE', '415'],
  ])('%s is %s with a JSON {error} body', (type, status) => {
    expect(byType.get(type)?.StatusCode).toBe(status);
    expect(bodyOf(type)).toEqual({ error: expect.any(String) });
  });

  it('answers an unknown route with the same message as the local server', () => {
    expect(bodyOf('MISSING_AUTHENTICATION_TOKEN')).toEqual({ error: UNKNOWN_ROUTE_MESSAGE });
  });

  it.each(['DEFAULT_4XX', 'DEFAULT_5XX'])(
    '%s keeps its status and gives a generic message with the request id',
    (type) => {
      expect(byType.get(type)?.StatusCode).toBeUndefined();
      expect(bodyOf(type)).toEqual({ error: expect.stringContaining('$context.requestId') });
      expect(JSON.stringify(bodyOf(type))).not.toContain('$context.error');
    },
  );

  it('lets browsers read every gateway error (CORS header)', () => {
    for (const properties of byType.values()) {
      expect(properties.ResponseParameters).toMatchObject({
        'gatewayresponse.header.Access-Control-Allow-Origin': "'*'",
      });
    }
  });
});

describe('stage', () => {
  it('throttles, logs, traces and records metrics', () => {
    template.hasResourceProperties('AWS::ApiGateway::Stage', {
      StageName: 'prod',
      TracingEnabled: true,
      MethodSettings: [
        Match.objectLike({
          HttpMethod: '*',
          ResourcePath: '/*',
          ThrottlingRateLimit: 100,
          ThrottlingBurstLimit: 200,
          MetricsEnabled: true,
          LoggingLevel: 'ERROR',
          DataTraceEnabled: false, // bodies never reach the logs
        }),
      ],
    });
  });

  it('writes a JSON access log line per request to its own log group', () => {
    const stage = Object.values(template.findResources('AWS::ApiGateway::Stage'))[0];
    const setting = stage?.Properties.AccessLogSetting as { DestinationArn: unknown; Format: string };
    expect(JSON.stringify(setting.DestinationArn)).toContain('ApiAccessLogs');
    const format = JSON.parse(setting.Format) as Record<string, string>;
    expect(format).toMatchObject({
      requestId: '$context.requestId',
      httpMethod: '$context.httpMethod',
      resourcePath: '$context.resourcePath',
      status: '$context.status',
      responseLatency: '$context.responseLatency',
    });
    template.hasResourceProperties('AWS::Logs::LogGroup', { RetentionInDays: 30 });
  });

  it('takes stage name and throttling from CDK context', () => {
    const custom = synthesize({ stageName: 'beta', throttleRateLimit: '5', throttleBurstLimit: '10' });
    custom.template.hasResourceProperties('AWS::ApiGateway::Stage', {
      StageName: 'beta',
      MethodSettings: [Match.objectLike({ ThrottlingRateLimit: 5, ThrottlingBurstLimit: 10 })],
    });
  });
});

describe('REST API', () => {
  it('is regional and passes multipart uploads to Lambda as binary', () => {
    template.hasResourceProperties('AWS::ApiGateway::RestApi', {
      EndpointConfiguration: { Types: ['REGIONAL'] },
      BinaryMediaTypes: Match.arrayWith(['multipart/form-data']),
    });
  });
});

describe('outputs', () => {
  it('give the stage URL once, as ApiUrl', () => {
    expect(Object.keys(template.toJSON().Outputs as object)).toEqual(['ApiUrl']);
    template.hasOutput('ApiUrl', { Value: { 'Fn::Join': ['', Match.arrayWith(['https://'])] } });
  });
});
