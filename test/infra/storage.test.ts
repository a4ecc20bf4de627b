import { Stack } from 'aws-cdk-lib';
import type { CfnTable } from 'aws-cdk-lib/aws-dynamodb';
import { JOBS_TABLE, PACKAGES_TABLE, TABLES, type TableSpec } from '../../lambdas/shared/store/tables';
import { service } from './support';

const { template, stack } = service();

const tableResource = (spec: TableSpec) => {
  const id = Stack.of(stack).getLogicalId(stack.storage.table(spec).node.defaultChild as CfnTable);
  return template.toJSON().Resources[id] as {
    Properties: Record<string, unknown>;
    DeletionPolicy?: string;
    UpdateReplacePolicy?: string;
  };
};

it('builds one table per spec, and no other', () => {
  template.resourceCountIs('AWS::DynamoDB::Table', TABLES.length);
});

describe.each(TABLES.map((t) => [t.id, t] as const))('table %s', (_id, spec) => {
  const table = tableResource(spec);

  it('is on-demand, with point-in-time recovery and encryption under the AWS managed key', () => {
    expect(table.Properties).toMatchObject({
      BillingMode: 'PAY_PER_REQUEST',
      PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true },
      SSESpecification: { SSEEnabled: true },
    });
  });

  it('has the keys of its spec', () => {
    expect(table.Properties.KeySchema).toEqual([
      { AttributeName: spec.partitionKey, KeyType: 'HASH' },
      ...(spec.sortKey ? [{ AttributeName: spec.sortKey, KeyType: 'RANGE' }] : []),
    ]);
  });

  it('has the indexes of its spec, projecting only the listed attributes', () => {
    expect(table.Properties.GlobalSecondaryIndexes).toEqual(
      spec.indexes.length === 0
        ? undefined
        : spec.indexes.map((index) => ({
            IndexName: index.name,
            KeySchema: [
              { AttributeName: index.partitionKey, KeyType: 'HASH' },
              { AttributeName: index.sortKey, KeyType: 'RANGE' },
            ],
            Projection: { ProjectionType: 'INCLUDE', NonKeyAttributes: [...index.include] },
          })),
    );
  });

  it('survives the stack (data is kept on delete and on replacement)', () => {
    expect(table.DeletionPolicy).toBe('Retain');
    expect(table.UpdateReplacePolicy).toBe('Retain');
  });
});

describe('expiry', () => {
  it('lets DynamoDB delete expired scan jobs', () => {
    expect(tableResource(JOBS_TABLE).Properties.TimeToLiveSpecification).toEqual({
      AttributeName: JOBS_TABLE.ttlAttribute,
      Enabled: true,
    });
  });

  it('keeps package records until they are replaced', () => {
    expect(tableResource(PACKAGES_TABLE).Properties.TimeToLiveSpecification).toBeUndefined();
  });
});
