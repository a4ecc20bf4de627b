/**
 * The service's stack: storage (DynamoDB tables), the scan pipeline (queue, uploads bucket, scanner,
 * advisory sync, alarms) and the public API (API Gateway + one Lambda per route), whose scan routes
 * send to the pipeline's queue and write to its bucket.
 */
import { CfnOutput, Stack, type StackProps } from 'aws-cdk-lib';
import type { Construct } from 'constructs';
import { DEFAULT_CONFIG, type ServiceConfig } from './config';
import { Api } from './constructs/api';
import { ScanPipeline } from './constructs/scan-pipeline';
import { Storage } from './constructs/storage';

export interface PkgScanStackProps extends StackProps {
  /** Deploy-time parameters (lib/config.ts). @default DEFAULT_CONFIG */
  readonly config?: ServiceConfig;
  /** Folder of the handlers' entry files. @default lambdas/handlers */
  readonly handlersDir?: string;
}

export class PkgScanStack extends Stack {
  public readonly storage: Storage;
  public readonly pipeline: ScanPipeline;
  public readonly api: Api;

  constructor(scope: Construct, id: string, props: PkgScanStackProps = {}) {
    super(scope, id, {
      description: 'Package security scanning service: REST API, scan pipeline, functions and tables',
      ...props,
    });
    const config = props.config ?? DEFAULT_CONFIG;

    this.storage = new Storage(this, 'Storage');
    this.pipeline = new ScanPipeline(this, 'Pipeline', {
      storage: this.storage,
      handlersDir: props.handlersDir,
      logRetention: config.logRetention,
      scannerConcurrency: config.scannerConcurrency,
      maxTarballBytes: config.maxTarballBytes,
      npmRegistryUrl: config.npmRegistryUrl,
      downloadsApiUrl: config.downloadsApiUrl,
      osvExportUrl: config.osvExportUrl,
      alarmTopicArn: config.alarmTopicArn,
    });
    this.api = new Api(this, 'Api', {
      storage: this.storage,
      pipeline: this.pipeline,
      handlersDir: props.handlersDir,
      stageName: config.stageName,
      throttleRateLimit: config.throttleRateLimit,
      throttleBurstLimit: config.throttleBurstLimit,
      logRetention: config.logRetention,
      cloudWatchRole: config.apiGatewayCloudWatchRole,
    });

    new CfnOutput(this, 'ApiUrl', {
      description: 'Base URL of the API (append v1/packages, health, ...)',
      value: this.api.url,
    });
  }
}
