import { App } from 'aws-cdk-lib';
import { RetentionDays } from 'aws-cdk-lib/aws-logs';
import { DEFAULT_CONFIG, readConfig } from '../../lib/config';

const configFrom = (context: Record<string, unknown>) => readConfig(new App({ context }).node);

describe('deploy-time parameters (CDK context)', () => {
  it('default to sensible values', () => {
    expect(configFrom({})).toEqual(DEFAULT_CONFIG);
    expect(DEFAULT_CONFIG).toMatchObject({
      stageName: 'prod',
      throttleRateLimit: 100,
      throttleBurstLimit: 200,
      scannerConcurrency: 4,
      maxTarballBytes: 64 * 1024 * 1024,
    });
  });

  it('write no registry, download-count or OSV URL by default (the clients’ own defaults apply)', () => {
    const config = configFrom({});
    expect(config.npmRegistryUrl).toBeUndefined();
    expect(config.downloadsApiUrl).toBeUndefined();
    expect(config.osvExportUrl).toBeUndefined();
    expect(config.alarmTopicArn).toBeUndefined();
  });

  it('default to the same limits the handlers assume when their variables are unset', async () => {
    delete process.env.MAX_TARBALL_BYTES;
    delete process.env.SCANNER_CONCURRENCY;
    const { scanConfig } = await import('../../lambdas/shared/scan-config');
    expect(DEFAULT_CONFIG.maxTarballBytes).toBe(scanConfig.maxTarballBytes);
    expect(DEFAULT_CONFIG.scannerConcurrency).toBe(scanConfig.scannerConcurrency);
  });

  it('accept strings from the command line and numbers from cdk.json', () => {
    expect(
      configFrom({
        stackName: 'PkgScan-Staging',
        stageName: 'staging',
        throttleRateLimit: '50',
        throttleBurstLimit: 80,
        logRetentionDays: '90',
        apiGatewayCloudWatchRole: 'false',
        scannerConcurrency: '10',
        maxTarballBytes: 16777216,
        npmRegistryUrl: 'https://registry.example.test/',
        downloadsApiUrl: 'http://downloads.internal:8080/',
        osvExportUrl: 'https://osv.example.test/npm/all.zip',
        alarmTopicArn: 'arn:aws:sns:eu-west-1:123456789012:alarms',
      }),
    ).toEqual({
      stackName: 'PkgScan-Staging',
      stageName: 'staging',
      throttleRateLimit: 50,
      throttleBurstLimit: 80,
      logRetention: RetentionDays.THREE_MONTHS,
      apiGatewayCloudWatchRole: false,
      scannerConcurrency: 10,
      maxTarballBytes: 16 * 1024 * 1024,
      npmRegistryUrl: 'https://registry.example.test/',
      downloadsApiUrl: 'http://downloads.internal:8080/',
      osvExportUrl: 'https://osv.example.test/npm/all.zip',
      alarmTopicArn: 'arn:aws:sns:eu-west-1:123456789012:alarms',
    });
  });

  it.each([
    [{ stageName: 'my stage' }, /stageName/],
    [{ throttleRateLimit: '10abc' }, /throttleRateLimit/],
    [{ throttleRateLimit: 0 }, /throttleRateLimit/],
    [
      { throttleBurstLimit: '5', throttleRateLimit: '10' },
      /throttleBurstLimit=5 is below throttleRateLimit=10/,
    ],
    [{ logRetentionDays: '31' }, /logRetentionDays=31: CloudWatch Logs accepts 1, 3, 5, 7, 14, 30/],
    [{ apiGatewayCloudWatchRole: 'yes' }, /apiGatewayCloudWatchRole/],
    [{ stackName: '1stack' }, /stackName/],
    [{ scannerConcurrency: '1' }, /scannerConcurrency=1: expected an integer from 2 to 1000/],
    [{ scannerConcurrency: 'four' }, /scannerConcurrency/],
    [{ maxTarballBytes: '1000' }, /maxTarballBytes=1000/],
    [{ maxTarballBytes: String(1024 ** 3) }, /maxTarballBytes/],
    [
      { npmRegistryUrl: 'registry.example.test' },
      /npmRegistryUrl=registry.example.test: expected an http\(s\) URL/,
    ],
    [{ downloadsApiUrl: 'ftp://downloads.example.test/' }, /downloadsApiUrl/],
    [{ osvExportUrl: 'not a url' }, /osvExportUrl/],
    [{ alarmTopicArn: 'alarms' }, /alarmTopicArn=alarms: the ARN of an SNS topic/],
  ])('reject %j, naming the key', (context, message) => {
    expect(() => configFrom(context)).toThrow(message);
  });
});
