/**
 * DynamoDB table layouts, written once and used by both the CDK stack (lib/) and the local
 * stand-in set-up (local/), so the two cannot drift apart. Access patterns: docs/storage.md.
 */
export interface IndexSpec {
  readonly name: string;
  readonly partitionKey: string;
  readonly sortKey: string;
  /** Non-key attributes copied into the index. */
  readonly include: readonly string[];
}

export interface TableSpec {
  /** Logical name: CDK construct id and the suffix of the local table name. */
  readonly id: string;
  /** Environment variable that carries the physical table name to a Lambda. */
  readonly envVar: string;
  readonly partitionKey: string;
  readonly sortKey?: string;
  readonly indexes: readonly IndexSpec[];
  /** Attribute holding an epoch-seconds expiry, when items expire. */
  readonly ttlAttribute?: string;
}

export const PACKAGES_TABLE: TableSpec = {
  id: 'Packages',
  envVar: 'PACKAGES_TABLE',
  partitionKey: 'pk',
  sortKey: 'sk',
  indexes: [{ name: 'by-downloads', partitionKey: 'lpk', sortKey: 'lsk', include: ['item'] }],
};

export const JOBS_TABLE: TableSpec = {
  id: 'Jobs',
  envVar: 'JOBS_TABLE',
  partitionKey: 'pk',
  indexes: [],
  ttlAttribute: 'expires_at',
};

/** OSV advisories, one item per (package name, advisory id): pk = name, sk = advisory id. */
export const ADVISORIES_TABLE: TableSpec = {
  id: 'Advisories',
  envVar: 'ADVISORIES_TABLE',
  partitionKey: 'pk',
  sortKey: 'sk',
  indexes: [],
};

export const TABLES = [PACKAGES_TABLE, JOBS_TABLE, ADVISORIES_TABLE] as const;
