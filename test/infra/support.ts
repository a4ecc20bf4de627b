/**
 * Synthesizes the service the way `cdk synth` does (same entry function, the context of cdk.json),
 * with bundling skipped so the tests take seconds.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { App } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import type { CloudAssembly } from 'aws-cdk-lib/cx-api';
import { PROJECT_ROOT } from '../../lib/paths';
import type { PkgScanStack } from '../../lib/pkgscan-stack';
import { addService } from '../../lib/service';

export interface Synthesized {
  readonly app: App;
  readonly stack: PkgScanStack;
  readonly template: Template;
  readonly assembly: CloudAssembly;
}

/** Context of cdk.json (feature flags, telemetry off). */
export function cdkJsonContext(): Record<string, unknown> {
  const cdkJson = JSON.parse(readFileSync(join(PROJECT_ROOT, 'cdk.json'), 'utf8')) as {
    context?: Record<string, unknown>;
  };
  return cdkJson.context ?? {};
}

export interface SynthOptions {
  /**
   * Run aws-cdk-lib's built-in CloudFormation template validation too (as `cdk synth` does). Its
   * engine takes 10-15 s to start in each test file, so only the validation test turns it on.
   * @default false
   */
  readonly cloudFormationValidation?: boolean;
}

export function synthesize(context: Record<string, unknown> = {}, options: SynthOptions = {}): Synthesized {
  const app = new App({
    context: { ...cdkJsonContext(), 'aws:cdk:bundling-stacks': [], ...context },
    builtinCloudFormationValidation: options.cloudFormationValidation ?? false,
  });
  const stack = addService(app);
  // Runs the cdk-nag checks too: an unacknowledged finding throws here.
  const assembly = app.synth();
  return { app, stack, assembly, template: Template.fromStack(stack) };
}

let cached: Synthesized | undefined;

/** The default configuration, synthesized once per test file. */
export function service(): Synthesized {
  cached ??= synthesize();
  return cached;
}
