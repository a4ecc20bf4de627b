/**
 * The project's Lambda function: every function of the service (API routes, the scan queue's
 * consumer, the upload notification and the advisory sync) is one of these, so all of them get the same runtime, architecture, bundling,
 * logging and tracing.
 */
import { Duration, RemovalPolicy } from 'aws-cdk-lib';
import { Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { Architecture, Runtime, Tracing } from 'aws-cdk-lib/aws-lambda';
import { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { Construct } from 'constructs';
import type { ICommandHooks } from 'aws-cdk-lib/aws-lambda-nodejs';
import { SNAPSHOT_FILE_NAME } from '../../lambdas/shared/downloads/snapshot-file';
import { lambdaBundlingOptions } from '../bundling';
import { acceptNagFinding } from '../nag';
import { LOCK_FILE, PROJECT_ROOT } from '../paths';

/**
 * Newest Node.js runtime aws-cdk-lib offers. Bundles are compiled for Node 20 syntax
 * (lib/bundling.ts), so the same code also runs on the local Node 20.
 */
export const LAMBDA_RUNTIME = Runtime.NODEJS_24_X;

/** Graviton: cheaper per GB-second than x86_64, and the code has no native modules. */
export const LAMBDA_ARCHITECTURE = Architecture.ARM_64;

export interface ServiceFunctionProps {
  /** TypeScript entry file exporting `handler`. */
  readonly entry: string;
  /**
   * The name the function logs, traces and publishes metrics under (`POWERTOOLS_SERVICE_NAME`):
   * `serviceNameOf(handler)` from lambdas/shared/observability.ts.
   */
  readonly serviceName: string;
  /** Shown in the Lambda console. */
  readonly description?: string;
  /**
   * Memory, which also sets the CPU share: cold starts (module load) are CPU-bound.
   * @default 512
   */
  readonly memorySize?: number;
  /**
   * Well below API Gateway's 29 s integration timeout: a stuck call fails early, and the client gets
   * the JSON 5xx gateway response (lib/constructs/api.ts).
   * @default Duration.seconds(10)
   */
  readonly timeout?: Duration;
  /** @default RetentionDays.ONE_MONTH */
  readonly logRetention?: RetentionDays;
  /**
   * Instances that may run at once, reserved from the account's pool (a queue consumer's ceiling).
   * @default - none reserved: the function shares the account's unreserved concurrency
   */
  readonly reservedConcurrentExecutions?: number;
  /** Extra environment variables; table names are added by `Storage.bindTable`. */
  readonly environment?: Readonly<Record<string, string>>;
  /**
   * Ships the offline download-count table beside the bundle (docs/downloads.md), made from the
   * `download-counts` development dependency at bundling time (cached in `.cache/`).
   * @default false
   */
  readonly withDownloadSnapshot?: boolean;
}

export class ServiceFunction extends NodejsFunction {
  /** Where the function writes its logs (created here, with a retention). */
  public readonly functionLogGroup: LogGroup;

  constructor(scope: Construct, id: string, props: ServiceFunctionProps) {
    // Created before the function (NodejsFunction needs them in its props), beside it in the tree.
    const logGroup = new LogGroup(scope, `${id}Logs`, {
      retention: props.logRetention ?? RetentionDays.ONE_MONTH,
      removalPolicy: RemovalPolicy.DESTROY,
    });
    // An own role instead of the default one with the AWSLambdaBasicExecutionRole managed policy:
    // it may write to its own log group only.
    const role = new Role(scope, `${id}Role`, {
      assumedBy: new ServicePrincipal('lambda.amazonaws.com'),
      description: `Execution role of ${id}`,
    });
    logGroup.grantWrite(role);

    super(scope, id, {
      entry: props.entry,
      handler: 'handler',
      description: props.description,
      runtime: LAMBDA_RUNTIME,
      architecture: LAMBDA_ARCHITECTURE,
      memorySize: props.memorySize ?? 512,
      timeout: props.timeout ?? Duration.seconds(10),
      reservedConcurrentExecutions: props.reservedConcurrentExecutions,
      tracing: Tracing.ACTIVE,
      logGroup,
      role,
      projectRoot: PROJECT_ROOT,
      depsLockFilePath: LOCK_FILE,
      bundling: props.withDownloadSnapshot
        ? { ...lambdaBundlingOptions(), commandHooks: downloadSnapshotHooks() }
        : lambdaBundlingOptions(),
      environment: {
        // Stack traces point at the TypeScript sources (maps are written beside the bundle).
        NODE_OPTIONS: '--enable-source-maps',
        POWERTOOLS_SERVICE_NAME: props.serviceName,
        ...props.environment,
      },
    });
    this.functionLogGroup = logGroup;
    acceptNagFinding(
      role,
      'AwsSolutions-IAM5[Resource::*]',
      'X-Ray tracing: xray:PutTraceSegments and xray:PutTelemetryRecords support no resource-level ' +
        'permissions, so their statement must name Resource "*"; no other action of the role is granted on "*".',
    );
  }
}

/** Bundling hooks that write the offline download-count table into the bundle's folder. */
function downloadSnapshotHooks(): ICommandHooks {
  return {
    beforeBundling: () => [],
    beforeInstall: () => [],
    afterBundling: (inputDir, outputDir) => [
      `cd "${inputDir}" && node --import tsx scripts/download-snapshot.ts --out "${outputDir}/${SNAPSHOT_FILE_NAME}"`,
    ],
  };
}
