/**
 * The service's DynamoDB tables, built from the shared specs in lambdas/shared/store/tables.ts
 * (the same specs the local stand-in tables are created from), and the one way functions get at them.
 */
import { RemovalPolicy, Stack } from 'aws-cdk-lib';
import {
  AttributeType,
  BillingMode,
  CfnTable,
  ProjectionType,
  Table,
  TableEncryption,
  type ITable,
} from 'aws-cdk-lib/aws-dynamodb';
import type { Function as LambdaFunction } from 'aws-cdk-lib/aws-lambda';
import { Construct } from 'constructs';
import type { Access } from '../../lambdas/routes';
import { TABLES, type TableSpec } from '../../lambdas/shared/store/tables';
import { acceptNagFinding } from '../nag';

export interface StorageProps {
  /** @default TABLES (every table of the service) */
  readonly tables?: readonly TableSpec[];
  /**
   * What happens to the tables (and their data) when they leave the stack.
   * @default RemovalPolicy.RETAIN
   */
  readonly removalPolicy?: RemovalPolicy;
}

export class Storage extends Construct {
  private readonly tablesById = new Map<string, Table>();

  constructor(scope: Construct, id: string, props: StorageProps = {}) {
    super(scope, id);
    for (const spec of props.tables ?? TABLES) {
      if (this.tablesById.has(spec.id)) throw new Error(`Table ${spec.id} is specified twice`);
      this.tablesById.set(spec.id, buildTable(this, spec, props.removalPolicy ?? RemovalPolicy.RETAIN));
    }
  }

  /** The table built from `spec`. */
  public table(spec: TableSpec): ITable {
    return this.builtTable(spec);
  }

  /**
   * Gives `fn` the table's physical name in the environment variable `spec.envVar` and the least
   * access it needs: `RO` grants reads (GetItem, Query, BatchGetItem, ..., on the table and its
   * indexes) and nothing else, `RW` adds writes and deletes.
   */
  public bindTable(fn: LambdaFunction, spec: TableSpec, access: Access): void {
    const table = this.builtTable(spec);
    fn.addEnvironment(spec.envVar, table.tableName);
    if (access === 'RW') table.grantReadWriteData(fn);
    else table.grantReadData(fn);
    if (spec.indexes.length > 0 && fn.role) {
      const tableId = Stack.of(table).getLogicalId(table.node.defaultChild as CfnTable);
      acceptNagFinding(
        fn.role,
        `AwsSolutions-IAM5[Resource::<${tableId}.Arn>/index/*]`,
        `The grant covers the indexes of table ${spec.id} (${spec.indexes.map((i) => i.name).join(', ')}), ` +
          "which its queries read; the wildcard matches only that table's own indexes, with the same actions.",
      );
    }
  }

  private builtTable(spec: TableSpec): Table {
    const table = this.tablesById.get(spec.id);
    if (!table) throw new Error(`No table ${spec.id} in ${this.node.path}`);
    return table;
  }
}

/** Every key attribute is a string: the key design (docs/storage.md) encodes numbers sortably. */
function buildTable(scope: Construct, spec: TableSpec, removalPolicy: RemovalPolicy): Table {
  const table = new Table(scope, spec.id, {
    partitionKey: { name: spec.partitionKey, type: AttributeType.STRING },
    sortKey: spec.sortKey ? { name: spec.sortKey, type: AttributeType.STRING } : undefined,
    billingMode: BillingMode.PAY_PER_REQUEST,
    pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
    encryption: TableEncryption.AWS_MANAGED,
    timeToLiveAttribute: spec.ttlAttribute,
    removalPolicy,
  });
  for (const index of spec.indexes) {
    table.addGlobalSecondaryIndex({
      indexName: index.name,
      partitionKey: { name: index.partitionKey, type: AttributeType.STRING },
      sortKey: { name: index.sortKey, type: AttributeType.STRING },
      projectionType: ProjectionType.INCLUDE,
      nonKeyAttributes: [...index.include],
    });
  }
  return table;
}
