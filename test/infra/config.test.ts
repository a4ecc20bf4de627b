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
    });
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
      }),
    ).toEqual({
      stackName: 'PkgScan-Staging',
      stageName: 'staging',
      throttleRateLimit: 50,
      throttleBurstLimit: 80,
      logRetention: RetentionDays.THREE_MONTHS,
      apiGatewayCloudWatchRole: false,
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
  ])('reject %j, naming the key', (context, message) => {
    expect(() => configFrom(context)).toThrow(message);
  });
});
