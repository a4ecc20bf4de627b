/**
 * The service's stack: storage (DynamoDB tables) and the public API (API Gateway + one Lambda per
 * route). Later capabilities slot in beside them as constructs of their own (a scan pipeline with
 * its queue, uploads bucket and scanner function), taking `storage` the way `Api` does.
 */
import { CfnOutput, Stack, type StackProps } from 'aws-cdk-lib';
import type { Construct } from 'constructs';
import { DEFAULT_CONFIG, type ServiceConfig } from './config';
import { Api } from './constructs/api';
import { Storage } from './constructs/storage';

export interface PkgScanStackProps extends StackProps {
  /** Deploy-time parameters (lib/config.ts). @default DEFAULT_CONFIG */
  readonly config?: ServiceConfig;
  /** Folder of the handlers' entry files. @default lambdas/handlers */
  readonly handlersDir?: string;
}

export class PkgScanStack extends Stack {
  public readonly storage: Storage;
  public readonly api: Api;

  constructor(scope: Construct, id: string, props: PkgScanStackProps = {}) {
    super(scope, id, {
      description: 'Package security scanning service: REST API, functions and tables',
      ...props,
    });
    const config = props.config ?? DEFAULT_CONFIG;

    this.storage = new Storage(this, 'Storage');
    this.api = new Api(this, 'Api', {
      storage: this.storage,
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
