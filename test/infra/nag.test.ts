import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { synthesize } from './support';

interface Violation {
  readonly ruleName: string;
  readonly severity: string;
  readonly reason?: string;
  readonly violatingConstructs: ReadonlyArray<{ readonly constructPath: string }>;
}

interface PluginReport {
  readonly pluginName: string;
  readonly conclusion: string;
  readonly violations: readonly Violation[];
  readonly suppressedViolations?: readonly Violation[];
}

// Synthesizes the app with the AwsSolutions checks registered (lib/service.ts) and, as `cdk synth`
// does, aws-cdk-lib's CloudFormation template validation; an unacknowledged error would already
// throw here. The report says what was found and what was accepted.
const { assembly } = synthesize({}, { cloudFormationValidation: true });
const report = JSON.parse(readFileSync(join(assembly.directory, 'validation-report.json'), 'utf8')) as {
  pluginReports: readonly PluginReport[];
};
const awsSolutions = report.pluginReports.find((r) => r.pluginName === 'AwsSolutions');

describe('cdk-nag AwsSolutions', () => {
  it('ran and passed with nothing left unacknowledged, warnings included', () => {
    expect(awsSolutions?.conclusion).toBe('success');
    expect(awsSolutions?.violations).toEqual([]);
  });

  it('accepts only the findings documented in docs/infrastructure.md, each with a specific reason', () => {
    const accepted = awsSolutions?.suppressedViolations ?? [];
    expect(accepted.filter((f) => (f.reason ?? '').length < 40).map((f) => f.ruleName)).toEqual([]);
    const rules = [
      ...new Set(accepted.map((f) => f.ruleName.replace(/<[A-Za-z0-9]+\.Arn>/, '<resource.Arn>'))),
    ];
    expect(rules.sort()).toEqual(
      [
        'AwsSolutions-APIG2',
        'AwsSolutions-APIG3',
        'AwsSolutions-APIG4',
        'AwsSolutions-COG4',
        'AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AmazonAPIGatewayPushToCloudWatchLogs]',
        'AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole]',
        'AwsSolutions-IAM5[Resource::*]',
        'AwsSolutions-IAM5[Resource::<resource.Arn>/index/*]',
        'AwsSolutions-IAM5[Resource::<resource.Arn>/uploads/*]',
        'AwsSolutions-S1',
      ].sort(),
    );
  });

  it('accepts wildcard resources only on function roles, for X-Ray, table indexes and uploads/*', () => {
    const wildcards = (awsSolutions?.suppressedViolations ?? []).filter((f) =>
      f.ruleName.startsWith('AwsSolutions-IAM5'),
    );
    for (const finding of wildcards) {
      for (const construct of finding.violatingConstructs) {
        expect(construct.constructPath).toMatch(
          /^[^/]+\/(Api|Pipeline)\/[A-Za-z]+Role\/DefaultPolicy\/Resource$/,
        );
      }
    }
  });

  it('accepts a managed policy on a Lambda role only for CDK’s bucket-notification handler', () => {
    const managed = (awsSolutions?.suppressedViolations ?? []).filter((f) =>
      f.ruleName.endsWith('AWSLambdaBasicExecutionRole]'),
    );
    const paths = managed.flatMap((f) => f.violatingConstructs.map((c) => c.constructPath));
    expect(paths.length).toBeGreaterThan(0);
    for (const path of paths) expect(path).toMatch(/^[^/]+\/BucketNotificationsHandler[0-9a-f]+\/Role\//);
  });

  it('accepts no server access log finding but that of the uploads bucket', () => {
    const s1 = (awsSolutions?.suppressedViolations ?? []).filter((f) => f.ruleName === 'AwsSolutions-S1');
    expect(s1.flatMap((f) => f.violatingConstructs.map((c) => c.constructPath))).toEqual([
      expect.stringMatching(/^[^/]+\/Pipeline\/Uploads\/Resource$/),
    ]);
  });

  it('no other validation (CloudFormation template rules) reports an error', () => {
    for (const plugin of report.pluginReports) {
      expect({
        plugin: plugin.pluginName,
        errors: plugin.violations.filter((v) => v.severity === 'error'),
      }).toEqual({
        plugin: plugin.pluginName,
        errors: [],
      });
    }
  });
});
