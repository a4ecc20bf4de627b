/**
 * The public REST API: one resource and method per route of lambdas/routes.ts, each with its own
 * function (Lambda proxy integration), plus everything API Gateway answers by itself (unknown routes,
 * throttling, oversized or wrongly typed bodies) turned into the contract's `{ "error": "..." }` JSON.
 */
import { Duration, RemovalPolicy, Size } from 'aws-cdk-lib';
import {
  AccessLogField,
  AccessLogFormat,
  Cors,
  EndpointType,
  LambdaIntegration,
  LogGroupLogDestination,
  MethodLoggingLevel,
  ResponseType,
  RestApi,
} from 'aws-cdk-lib/aws-apigateway';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import {
  BINARY_MEDIA_TYPES,
  CORS_PREFLIGHT,
  ROUTES,
  UNKNOWN_ROUTE_MESSAGE,
  type RouteSpec,
} from '../../lambdas/routes';
import { serviceNameOf } from '../../lambdas/shared/observability';
import { JOBS_TABLE } from '../../lambdas/shared/store/tables';
import { acceptNagFinding } from '../nag';
import { handlerEntry, HANDLERS_DIR } from '../paths';
import type { ScanPipeline } from './scan-pipeline';
import { ServiceFunction } from './service-function';
import type { Storage } from './storage';

/** Media types API Gateway passes to Lambda base64-encoded (the tarball upload is multipart). */

/** Headers every error answered by API Gateway itself carries, so browsers can read it (CORS). */
const GATEWAY_ERROR_HEADERS = { 'Access-Control-Allow-Origin': "'*'" };

/**
 * API Gateway's own errors and what the client sees instead. `status` undefined keeps the code
 * API Gateway chose (DEFAULT_4XX/5XX cover several types with different codes).
 */
export const GATEWAY_ERRORS: ReadonlyArray<{
  readonly type: ResponseType;
  readonly status?: string;
  readonly message: string;
  readonly headers?: Readonly<Record<string, string>>;
}> = [
  // A REST API answers a path or method it does not have with 403 "Missing Authentication Token".
  { type: ResponseType.MISSING_AUTHENTICATION_TOKEN, status: '404', message: UNKNOWN_ROUTE_MESSAGE },
  { type: ResponseType.RESOURCE_NOT_FOUND, status: '404', message: UNKNOWN_ROUTE_MESSAGE },
  {
    type: ResponseType.THROTTLED,
    status: '429',
    message: 'Too many requests: retry after a short pause',
    headers: { 'Retry-After': "'1'" },
  },
  { type: ResponseType.REQUEST_TOO_LARGE, status: '413', message: 'Request body too large' },
  {
    type: ResponseType.UNSUPPORTED_MEDIA_TYPE,
    status: '415',
    message: 'Unsupported media type: send application/json (multipart/form-data for tarball uploads)',
  },
  { type: ResponseType.DEFAULT_4XX, message: 'Request rejected (request id $context.requestId)' },
  {
    type: ResponseType.DEFAULT_5XX,
    message: 'Internal server error (request id $context.requestId)',
  },
];

export interface ApiProps {
  /** Tables the routes' functions are bound to. */
  readonly storage: Storage;
  /**
   * Queue and uploads bucket for the routes that declare `queue` or `uploads`.
   * @default - none: such a route is an error
   */
  readonly pipeline?: ScanPipeline;
  /** @default ROUTES */
  readonly routes?: readonly RouteSpec[];
  /** Folder of the `<handler>.ts` entry files. @default lambdas/handlers */
  readonly handlersDir?: string;
  /** @default 'prod' */
  readonly stageName?: string;
  /** Requests per second across the stage. @default 100 */
  readonly throttleRateLimit?: number;
  /** Burst above the rate. @default 200 */
  readonly throttleBurstLimit?: number;
  /** Retention of the access logs and the functions' logs. @default RetentionDays.ONE_MONTH */
  readonly logRetention?: RetentionDays;
  /** Create API Gateway's account-wide CloudWatch Logs role. @default true */
  readonly cloudWatchRole?: boolean;
}

export class Api extends Construct {
  public readonly restApi: RestApi;
  /** JSON access log of the stage, one line per request. */
  public readonly accessLogGroup: LogGroup;
  /** The function behind each route, keyed `METHOD /path`. */
  public readonly functions: ReadonlyMap<string, ServiceFunction>;

  constructor(scope: Construct, id: string, props: ApiProps) {
    super(scope, id);
    const routes = props.routes ?? ROUTES;
    const logRetention = props.logRetention ?? RetentionDays.ONE_MONTH;

    this.accessLogGroup = new LogGroup(this, 'AccessLogs', {
      retention: logRetention,
      removalPolicy: RemovalPolicy.RETAIN,
    });

    this.restApi = new RestApi(this, 'RestApi', {
      description: 'Package security scanning service: public REST API (contract: openapi/openapi.json)',
      endpointTypes: [EndpointType.REGIONAL],
      binaryMediaTypes: [...BINARY_MEDIA_TYPES],
      minCompressionSize: Size.kibibytes(1),
      cloudWatchRole: props.cloudWatchRole ?? true,
      deployOptions: {
        stageName: props.stageName ?? 'prod',
        throttlingRateLimit: props.throttleRateLimit ?? 100,
        throttlingBurstLimit: props.throttleBurstLimit ?? 200,
        accessLogDestination: new LogGroupLogDestination(this.accessLogGroup),
        accessLogFormat: accessLogFormat(),
        // Execution logs for errors only; request and response bodies are never logged.
        loggingLevel: MethodLoggingLevel.ERROR,
        dataTraceEnabled: false,
        metricsEnabled: true,
        tracingEnabled: true,
      },
    });

    // The stack outputs the URL under a stable name (ApiUrl); drop RestApi's own hash-named output.
    this.restApi.node.tryRemoveChild('Endpoint');

    for (const error of GATEWAY_ERRORS) {
      this.restApi.addGatewayResponse(error.type.responseType, {
        type: error.type,
        statusCode: error.status,
        responseHeaders: { ...GATEWAY_ERROR_HEADERS, ...error.headers },
        templates: { 'application/json': JSON.stringify({ error: error.message }) },
      });
    }

    const functions = new Map<string, ServiceFunction>();
    for (const route of routes) {
      const key = `${route.method} ${route.path}`;
      if (functions.has(key)) throw new Error(`Route ${key} is specified twice`);
      const fn = new ServiceFunction(this, functionId(route), {
        entry: handlerEntry(route.handler, props.handlersDir ?? HANDLERS_DIR),
        serviceName: serviceNameOf(route.handler),
        description: key,
        logRetention,
      });
      for (const { table, access } of route.tables) props.storage.bindTable(fn, table, access);
      // Functions that judge jobs learn how long a scan can legitimately stay `running`.
      if (props.pipeline && route.tables.some((t) => t.table === JOBS_TABLE))
        fn.addEnvironment('STALE_RUNNING_SECONDS', String(props.pipeline.staleRunningSeconds));
      if (route.queue || route.uploads) {
        if (!props.pipeline) throw new Error(`Route ${key} needs the scan pipeline (queue or uploads)`);
        if (route.queue) props.pipeline.bindQueue(fn, route.queue);
        if (route.uploads) props.pipeline.bindUploads(fn, route.uploads);
      }
      this.restApi.root
        .resourceForPath(route.path)
        .addMethod(route.method, new LambdaIntegration(fn, { proxy: true, allowTestInvoke: false }), {
          operationName: route.handler,
        });
      functions.set(key, fn);
    }
    this.functions = functions;

    // Browser pages may call the read routes: answer their preflight requests.
    for (const [path, methods] of corsMethodsByPath(routes)) {
      this.restApi.root.resourceForPath(path).addCorsPreflight({
        allowOrigins: Cors.ALL_ORIGINS,
        allowMethods: [...methods, 'OPTIONS'],
        allowHeaders: [...CORS_PREFLIGHT.allowHeaders],
        maxAge: Duration.seconds(CORS_PREFLIGHT.maxAgeSeconds),
      });
    }

    this.acceptNagFindings();
  }

  private acceptNagFindings(): void {
    const publicByDesign =
      'Public API by design: the contract (spec/interface.md, Authentication) has every endpoint ' +
      'public, with no API key, token or user sign-in; abuse is bounded by stage throttling (429).';
    acceptNagFinding(this.restApi, 'AwsSolutions-APIG4', publicByDesign);
    acceptNagFinding(this.restApi, 'AwsSolutions-COG4', publicByDesign);
    acceptNagFinding(
      this.restApi,
      'AwsSolutions-APIG2',
      'Each handler validates its request against the contract schemas (zod) and answers 400 with the ' +
        'contract body {"error": ...} naming the bad parameter; an API Gateway request validator would ' +
        'reject first, with its own message.',
    );
    acceptNagFinding(
      this.restApi.deploymentStage,
      'AwsSolutions-APIG3',
      'No WAF web ACL in this stack: the API is public and mostly read-only, and stage throttling ' +
        'bounds request rates. A regional web ACL (an account-level choice with its own cost) can be ' +
        'associated with the stage by the operator without changing this stack.',
    );
    acceptNagFinding(
      this.restApi,
      'AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AmazonAPIGatewayPushToCloudWatchLogs]',
      "API Gateway's account-level logging role, which the access and execution logs need: " +
        'AmazonAPIGatewayPushToCloudWatchLogs is the policy AWS documents for it, and only ' +
        'apigateway.amazonaws.com can assume the role.',
    );
  }

  /** Base URL of the deployed stage (ends with `/`). */
  public get url(): string {
    return this.restApi.url;
  }
}

/** Construct id of a route's function, from its handler file: `list-packages` -> `ListPackages`. */
export function functionId(route: RouteSpec): string {
  return route.handler
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((part) => part.charAt(0).toUpperCase() + part.slice(1))
    .join('');
}

function corsMethodsByPath(routes: readonly RouteSpec[]): Map<string, string[]> {
  const byPath = new Map<string, string[]>();
  for (const route of routes) {
    if (!route.cors) continue;
    byPath.set(route.path, [...(byPath.get(route.path) ?? []), route.method]);
  }
  return byPath;
}

/** One JSON object per request: who, what, outcome, and where the time went. */
function accessLogFormat(): AccessLogFormat {
  return AccessLogFormat.custom(
    JSON.stringify({
      requestId: AccessLogField.contextRequestId(),
      extendedRequestId: AccessLogField.contextExtendedRequestId(),
      requestTime: AccessLogField.contextRequestTime(),
      ip: AccessLogField.contextIdentitySourceIp(),
      userAgent: AccessLogField.contextIdentityUserAgent(),
      httpMethod: AccessLogField.contextHttpMethod(),
      resourcePath: AccessLogField.contextResourcePath(),
      path: AccessLogField.contextPath(),
      protocol: AccessLogField.contextProtocol(),
      status: AccessLogField.contextStatus(),
      responseLength: AccessLogField.contextResponseLength(),
      responseLatency: AccessLogField.contextResponseLatency(),
      integrationStatus: AccessLogField.contextIntegrationStatus(),
      integrationLatency: AccessLogField.contextIntegrationLatency(),
      errorType: AccessLogField.contextErrorResponseType(),
      errorMessage: AccessLogField.contextErrorMessage(),
      xrayTraceId: AccessLogField.contextXrayTraceId(),
    }),
  );
}
