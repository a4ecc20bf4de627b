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
  /**
   * Scanner instances at most (its reserved concurrency and the queue poller's maximum
   * concurrency); the scan API's time estimates use it too.
   */
  readonly scannerConcurrency: number;
  /** Largest package tarball the scanner fetches or accepts through a presigned upload, in bytes. */
  readonly maxTarballBytes: number;
  /** npm registry the scanner reads; unset, npm's own client default applies (nothing is written). */
  readonly npmRegistryUrl?: string;
  /** Download-count service override; unset, query-registry's default (npm's download-count API) is used. */
  readonly downloadsApiUrl?: string;
  /** OSV export (zip) the advisory sync reads; unset, the sync's built-in default (OSV's npm export). */
  readonly osvExportUrl?: string;
  /** SNS topic the alarms notify (ALARM and OK); unset, the alarms only change state. */
  readonly alarmTopicArn?: string;
}

export const DEFAULT_CONFIG: ServiceConfig = {
  stackName: 'PkgScan',
  stageName: 'prod',
  throttleRateLimit: 100,
  throttleBurstLimit: 200,
  logRetention: RetentionDays.ONE_MONTH,
  apiGatewayCloudWatchRole: true,
  scannerConcurrency: 4,
  maxTarballBytes: 64 * 1024 * 1024,
};

/** Bounds of `maxTarballBytes`: the scanner holds a tarball in memory (2 GB function). */
export const TARBALL_BYTES_RANGE = { min: 1024 * 1024, max: 256 * 1024 * 1024 } as const;

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
  const url = (key: string): string | undefined => {
    const raw: unknown = node.tryGetContext(key);
    if (raw === undefined || raw === '') return undefined;
    const value = String(raw);
    let parsed: URL | undefined;
    try {
      parsed = new URL(value);
    } catch {
      parsed = undefined;
    }
    if (!parsed || !/^https?:$/.test(parsed.protocol)) {
      throw new Error(`Context ${key}=${value}: expected an http(s) URL`);
    }
    return value;
  };
  const optional = (key: string, pattern: RegExp, rule: string): string | undefined => {
    const raw: unknown = node.tryGetContext(key);
    if (raw === undefined || raw === '') return undefined;
    return str(key, '', pattern, rule);
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
    // At least 2: the SQS event source's maximum concurrency cannot be lower.
    scannerConcurrency: int('scannerConcurrency', DEFAULT_CONFIG.scannerConcurrency, 2, 1000),
    maxTarballBytes: int(
      'maxTarballBytes',
      DEFAULT_CONFIG.maxTarballBytes,
      TARBALL_BYTES_RANGE.min,
      TARBALL_BYTES_RANGE.max,
    ),
    npmRegistryUrl: url('npmRegistryUrl'),
    downloadsApiUrl: url('downloadsApiUrl'),
    osvExportUrl: url('osvExportUrl'),
    alarmTopicArn: optional(
      'alarmTopicArn',
      /^arn:aws[a-z-]*:sns:[a-z0-9-]+:\d{12}:[A-Za-z0-9_-]{1,256}$/,
      'the ARN of an SNS topic (arn:aws:sns:<region>:<account>:<name>)',
    ),
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
