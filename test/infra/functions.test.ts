import { Stack } from 'aws-cdk-lib';
import type { CfnTable } from 'aws-cdk-lib/aws-dynamodb';
import { Runtime } from 'aws-cdk-lib/aws-lambda';
import { ROUTES } from '../../lambdas/routes';
import { PACKAGES_TABLE, TABLES } from '../../lambdas/shared/store/tables';
import { LAMBDA_RUNTIME } from '../../lib/constructs/service-function';
import { service } from './support';
import { functionIdByDescription, roleStatements } from './template-paths';

const { template, stack } = service();
const routes = ROUTES.map((r) => [`${r.method} ${r.path}`, r] as const);

const tableId = (spec: (typeof TABLES)[number]): string =>
  Stack.of(stack).getLogicalId(stack.storage.table(spec).node.defaultChild as CfnTable);

const functionProperties = (key: string): Record<string, unknown> => {
  const resource = template.toJSON().Resources[functionIdByDescription(template, key)] as {
    Properties: Record<string, unknown>;
  };
  return resource.Properties;
};

const dynamoStatements = (key: string) => {
  const role = functionProperties(key).Role as { 'Fn::GetAtt': [string, string] };
  return roleStatements(template, role['Fn::GetAtt'][0]).filter((s) =>
    [s.Action].flat().some((a) => a.startsWith('dynamodb:')),
  );
};

/** DynamoDB actions that change data (and PartiQL, which can). */
const WRITE_ACTION = /^dynamodb:(Put|Update|Delete|BatchWrite|PartiQL|TransactWrite|Import|Restore|Create)/;

describe('Lambda runtime', () => {
  it('is the newest Node.js runtime aws-cdk-lib offers', () => {
    const newest = Object.values(Runtime)
      .filter((r): r is Runtime => r instanceof Runtime && /^nodejs\d+\.x$/.test(r.name))
      .sort((a, b) => Number.parseInt(b.name.slice(6), 10) - Number.parseInt(a.name.slice(6), 10))[0];
    expect(LAMBDA_RUNTIME.name).toBe(newest?.name);
  });
});

describe.each(routes)('function of %s', (key, route) => {
  it('runs on arm64 with the shared runtime, X-Ray tracing and source maps', () => {
    expect(functionProperties(key)).toMatchObject({
      Runtime: LAMBDA_RUNTIME.name,
      Architectures: ['arm64'],
      Handler: 'index.handler',
      TracingConfig: { Mode: 'Active' },
      Environment: { Variables: expect.objectContaining({ NODE_OPTIONS: '--enable-source-maps' }) },
    });
  });

  it('logs to its own log group with a retention', () => {
    const logging = functionProperties(key).LoggingConfig as { LogGroup: { Ref: string } };
    const logGroup = template.toJSON().Resources[logging.LogGroup.Ref] as { Properties: unknown };
    expect(logGroup.Properties).toMatchObject({ RetentionInDays: 30 });
  });

  it('gets the physical name of each table it uses, and only those', () => {
    const variables = (functionProperties(key).Environment as { Variables: Record<string, unknown> })
      .Variables;
    for (const spec of TABLES) {
      const bound = route.tables.some((t) => t.table.id === spec.id);
      expect(variables[spec.envVar]).toEqual(bound ? { Ref: tableId(spec) } : undefined);
    }
  });

  const readOnly = route.tables.length > 0 && route.tables.every((t) => t.access === 'RO');
  if (readOnly) {
    it('may only read its tables and their indexes', () => {
      const statements = dynamoStatements(key);
      const actions = statements.flatMap((s) => [s.Action].flat());
      expect(actions).toEqual(
        expect.arrayContaining(['dynamodb:GetItem', 'dynamodb:Query', 'dynamodb:BatchGetItem']),
      );
      expect(actions.filter((a) => WRITE_ACTION.test(a))).toEqual([]);
      expect(
        actions.filter((a) => !/^dynamodb:(Get|Query|Scan|BatchGet|Describe|ConditionCheck)/.test(a)),
      ).toEqual([]);
      const allowed = route.tables.flatMap(({ table }) => [
        { 'Fn::GetAtt': [tableId(table), 'Arn'] },
        ...(table.indexes.length > 0
          ? [{ 'Fn::Join': ['', [{ 'Fn::GetAtt': [tableId(table), 'Arn'] }, '/index/*']] }]
          : []),
      ]);
      for (const statement of statements) {
        expect(statement.Effect).toBe('Allow');
        for (const resource of [statement.Resource].flat()) expect(allowed).toContainEqual(resource);
      }
    });
  }

  if (route.tables.length === 0) {
    it('has no DynamoDB access at all', () => {
      expect(dynamoStatements(key)).toEqual([]);
    });
  }
});

describe('read routes', () => {
  it('read the packages table', () => {
    // The reads of lambdas/routes.ts: every GET of a package and the bulk lookup.
    const reads = ROUTES.filter((r) => r.path.startsWith('/v1/packages') || r.path === '/v1/bulk');
    expect(reads.length).toBeGreaterThan(0);
    for (const route of reads) {
      expect(route.tables).toEqual([{ table: PACKAGES_TABLE, access: 'RO' }]);
    }
  });

  it('have no IAM statement beyond logs, X-Ray and DynamoDB reads', () => {
    for (const [key] of routes) {
      const role = functionProperties(key).Role as { 'Fn::GetAtt': [string, string] };
      const actions = roleStatements(template, role['Fn::GetAtt'][0]).flatMap((s) => [s.Action].flat());
      expect(
        actions.filter((a) => !/^(logs:(CreateLogStream|PutLogEvents)|xray:Put|dynamodb:)/.test(a)),
      ).toEqual([]);
    }
  });

  it('use roles without AWS managed policies', () => {
    const lambdaRoles = Object.values(template.findResources('AWS::IAM::Role')).filter((r) =>
      JSON.stringify(r.Properties.AssumeRolePolicyDocument).includes('lambda.amazonaws.com'),
    );
    expect(lambdaRoles).toHaveLength(ROUTES.length);
    for (const role of lambdaRoles) expect(role.Properties.ManagedPolicyArns).toBeUndefined();
  });
});
