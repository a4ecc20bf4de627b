/**
 * Deploy-time parameters, read from CDK context (`cdk.json` or `npx cdk deploy -c key=value`).
 * Documented in docs/infrastructure.md. Values given on the command line arrive as strings.
 */
import { RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { Node } from 'constructs';

export interface ServiceConfig {
  /** CloudFormation stack name. */
  readonly stackName: string;
  /** API Gateway stage: the first path segment of the invoke URL, before `/v1`. */
  readonly stageName: string;
  /** Steady-state requests per second the stage lets through (all clients together). */
  readonly throttleRateLimit: number;
  /** Requests the stage lets through in a burst above the rate. */
  readonly throttleBurstLimit: number;
  /** Days the functions' logs and the access logs are kept. */
  readonly logRetention: RetentionDays;
  /**
   * Create the account-wide role API Gateway writes logs with. Turn off when the account's API
   * Gateway settings already name one (there is one per account and region).
   */
  readonly apiGatewayCloudWatchRole: boolean;
}

export const DEFAULT_CONFIG: ServiceConfig = {
  stackName: 'PkgScan',
  stageName: 'prod',
  throttleRateLimit: 100,
  throttleBurstLimit: 200,
  logRetention: RetentionDays.ONE_MONTH,
  apiGatewayCloudWatchRole: true,
};

const RETENTION_VALUES = new Set<number>(
  Object.values(RetentionDays).filter((v): v is number => typeof v === 'number'),
);

/** Reads and checks the context; a bad value stops synth with a message naming the key. */
export function readConfig(node: Node): ServiceConfig {
  const str = (key: string, fallback: string, pattern: RegExp, rule: string): string => {
    const raw: unknown = node.tryGetContext(key);
    if (raw === undefined) return fallback;
    const value = String(raw);
    if (!pattern.test(value)) throw new Error(`Context ${key}=${value}: ${rule}`);
    return value;
  };
  const int = (key: string, fallback: number, min: number, max: number): number => {
    const raw: unknown = node.tryGetContext(key);
    if (raw === undefined) return fallback;
    const value = typeof raw === 'number' ? raw : /^\d+$/.test(String(raw)) ? Number(raw) : NaN;
    if (!Number.isInteger(value) || value < min || value > max) {
      throw new Error(`Context ${key}=${String(raw)}: expected an integer from ${min} to ${max}`);
    }
    return value;
  };
  const bool = (key: string, fallback: boolean): boolean => {
    const raw: unknown = node.tryGetContext(key);
    if (raw === undefined) return fallback;
    if (raw === true || raw === 'true') return true;
    if (raw === false || raw === 'false') return false;
    throw new Error(`Context ${key}=${String(raw)}: expected true or false`);
  };

  const config: ServiceConfig = {
    stackName: str(
      'stackName',
      DEFAULT_CONFIG.stackName,
      /^[A-Za-z][A-Za-z0-9-]{0,127}$/,
      'a CloudFormation stack name (letters, digits, hyphens; starts with a letter)',
    ),
    stageName: str(
      'stageName',
      DEFAULT_CONFIG.stageName,
      /^[A-Za-z0-9_]{1,128}$/,
      'letters, digits and underscores only',
    ),
    throttleRateLimit: int('throttleRateLimit', DEFAULT_CONFIG.throttleRateLimit, 1, 10_000),
    throttleBurstLimit: int('throttleBurstLimit', DEFAULT_CONFIG.throttleBurstLimit, 1, 5_000),
    logRetention: int('logRetentionDays', DEFAULT_CONFIG.logRetention, 1, 3653) as RetentionDays,
    apiGatewayCloudWatchRole: bool('apiGatewayCloudWatchRole', DEFAULT_CONFIG.apiGatewayCloudWatchRole),
  };
  if (!RETENTION_VALUES.has(config.logRetention)) {
    throw new Error(
      `Context logRetentionDays=${config.logRetention}: CloudWatch Logs accepts ${[...RETENTION_VALUES]
        .filter((d) => d > 0)
        .sort((a, b) => a - b)
        .join(', ')}`,
    );
  }
  if (config.throttleBurstLimit < config.throttleRateLimit) {
    // A burst below the rate would cap the rate at the burst: almost certainly a typo.
    throw new Error(
      `Context throttleBurstLimit=${config.throttleBurstLimit} is below throttleRateLimit=${config.throttleRateLimit}`,
    );
  }
  return config;
}
