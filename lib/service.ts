/**
 * Puts the service into a CDK app: the stack, configured from context, and the cdk-nag AwsSolutions
 * checks, whose unacknowledged findings stop synth. Shared by bin/app.ts and the infra tests, so the
 * tests check exactly what `cdk synth` produces.
 */
import { Validations, type App } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import { readConfig } from './config';
import { PkgScanStack } from './pkgscan-stack';

export interface ServiceOptions {
  /** Folder of the handlers' entry files. @default lambdas/handlers */
  readonly handlersDir?: string;
}

export function addService(app: App, options: ServiceOptions = {}): PkgScanStack {
  const config = readConfig(app.node);
  // No `env`: the template names no account or region, so synth needs no AWS credentials.
  const stack = new PkgScanStack(app, config.stackName, { config, handlersDir: options.handlersDir });
  Validations.of(app).addPlugins(new AwsSolutionsChecks(app));
  return stack;
}
