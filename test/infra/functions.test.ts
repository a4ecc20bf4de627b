import { Runtime } from 'aws-cdk-lib/aws-lambda';
import { ROUTES, type Access, type RouteSpec } from '../../lambdas/routes';
import { serviceNameOf } from '../../lambdas/shared/observability';
import {
  ADVISORIES_TABLE,
  JOBS_TABLE,
  PACKAGES_TABLE,
  type TableSpec,
} from '../../lambdas/shared/store/tables';
import { LAMBDA_RUNTIME, type ServiceFunction } from '../../lib/constructs/service-function';
import { service } from './support';
import {
  actionsOn,
  arnOf,
  arnWith,
  dataStatements,
  logicalId,
  resourcesOf,
  roleStatements,
  type Statement,
} from './template-paths';

const { template, stack } = service();
const { pipeline } = stack;

/**
 * What each function may touch, stated here: for routes, what lambdas/routes.ts declares; for the
 * pipeline's functions, what they need (lambdas/handlers/*.ts) and nothing more.
 */
interface Profile {
  /** The name it logs, traces and publishes metrics under. */
  readonly service: string;
  readonly tables: ReadonlyArray<{ readonly table: TableSpec; readonly access: Access }>;
  /** `send`: SendMessage + GetQueueAttributes; `consume`: the SQS event source's receive/delete. */
  readonly queue?: 'send' | 'consume';
  /** PutObject (`write`) or GetObject (`read`) on uploads/* of the uploads bucket. */
  readonly uploads?: 'write' | 'read';
  /** Environment variables beyond tables, queue and bucket. */
  readonly extraEnv?: readonly string[];
}

const routeProfile = (route: RouteSpec): Profile => ({
  service: serviceNameOf(route.handler),
  tables: route.tables,
  queue: route.queue,
  uploads: route.uploads,
  // API functions that judge jobs get the derived time a scan may stay running.
  ...(route.tables.some((t) => t.table === JOBS_TABLE) ? { extraEnv: ['STALE_RUNNING_SECONDS'] } : {}),
});

const functions: ReadonlyArray<readonly [string, ServiceFunction, Profile]> = [
  ...ROUTES.map((route) => {
    const fn = stack.api.functions.get(`${route.method} ${route.path}`);
    if (!fn) throw new Error(`No function for ${route.method} ${route.path}`);
    return [`${route.method} ${route.path}`, fn, routeProfile(route)] as const;
  }),
  [
    'scanner',
    pipeline.scanner,
    {
      service: 'pkgscan-scanner',
      tables: [
        { table: PACKAGES_TABLE, access: 'RW' },
        { table: JOBS_TABLE, access: 'RW' },
        { table: ADVISORIES_TABLE, access: 'RO' },
      ],
      queue: 'consume',
      uploads: 'read',
      extraEnv: ['MAX_RECEIVE_COUNT'],
    },
  ],
  [
    'upload-received',
    pipeline.uploadReceived,
    { service: 'pkgscan-upload-received', tables: [{ table: JOBS_TABLE, access: 'RW' }], queue: 'send' },
  ],
  [
    'advisory-sync',
    pipeline.advisorySync,
    {
      service: 'pkgscan-advisory-sync',
      tables: [
        { table: ADVISORIES_TABLE, access: 'RW' },
        { table: PACKAGES_TABLE, access: 'RW' },
      ],
    },
  ],
  [
    'downloads-refresh',
    pipeline.downloadsRefresh,
    { service: 'pkgscan-downloads-refresh', tables: [{ table: PACKAGES_TABLE, access: 'RW' }] },
  ],
];

const properties = (fn: ServiceFunction): Record<string, unknown> =>
  (template.toJSON().Resources[logicalId(fn)] as { Properties: Record<string, unknown> }).Properties;
const environment = (fn: ServiceFunction): Record<string, unknown> =>
  (properties(fn).Environment as { Variables: Record<string, unknown> }).Variables;

const tableId = (spec: TableSpec): string => logicalId(stack.storage.table(spec));
const tableResources = (spec: TableSpec) => [
  arnOf(tableId(spec)),
  ...(spec.indexes.length > 0 ? [arnWith(tableId(spec), '/index/*')] : []),
];
const queueArn = arnOf(logicalId(pipeline.queue));
const uploadsArn = arnWith(logicalId(pipeline.uploadsBucket), '/uploads/*');

const only = (statements: readonly Statement[], service: string) =>
  statements.filter((s) => [s.Action].flat().every((a) => a.startsWith(`${service}:`)));

/** DynamoDB actions that change data (and PartiQL, which can). */
const WRITE_ACTION = /^dynamodb:(Put|Update|Delete|BatchWrite|PartiQL|TransactWrite|Import|Restore|Create)/;
const READ_ACTION = /^dynamodb:(Get|Query|Scan|BatchGet|Describe|ConditionCheck)/;

describe('Lambda runtime', () => {
  it('is the newest Node.js runtime aws-cdk-lib offers', () => {
    const newest = Object.values(Runtime)
      .filter((r): r is Runtime => r instanceof Runtime && /^nodejs\d+\.x$/.test(r.name))
      .sort((a, b) => Number.parseInt(b.name.slice(6), 10) - Number.parseInt(a.name.slice(6), 10))[0];
    expect(LAMBDA_RUNTIME.name).toBe(newest?.name);
  });
});

describe('service names', () => {
  it('are one per function, so a log line names the function that wrote it', () => {
    const names = functions.map(([, fn]) => environment(fn).POWERTOOLS_SERVICE_NAME);
    expect(new Set(names).size).toBe(functions.length);
  });
});

describe.each(functions)('function %s', (_name, fn, profile) => {
  it('runs on arm64 with the shared runtime, X-Ray tracing and source maps', () => {
    expect(properties(fn)).toMatchObject({
      Runtime: LAMBDA_RUNTIME.name,
      Architectures: ['arm64'],
      Handler: 'index.handler',
      TracingConfig: { Mode: 'Active' },
      Environment: { Variables: expect.objectContaining({ NODE_OPTIONS: '--enable-source-maps' }) },
    });
  });

  it('logs to its own log group with a retention', () => {
    const logging = properties(fn).LoggingConfig as { LogGroup: { Ref: string } };
    expect(logging.LogGroup.Ref).toBe(logicalId(fn.functionLogGroup));
    const logGroup = template.toJSON().Resources[logging.LogGroup.Ref] as { Properties: unknown };
    expect(logGroup.Properties).toMatchObject({ RetentionInDays: 30 });
  });

  it('is configured with exactly the names of what it may use', () => {
    const variables = environment(fn);
    const expected = [
      'NODE_OPTIONS',
      'POWERTOOLS_SERVICE_NAME',
      ...profile.tables.map((t) => t.table.envVar),
      ...(profile.queue === 'send' ? ['SCAN_QUEUE_URL', 'SCANNER_CONCURRENCY'] : []),
      ...(profile.uploads ? ['UPLOAD_BUCKET', 'MAX_TARBALL_BYTES'] : []),
      ...(profile.extraEnv ?? []),
    ];
    expect(Object.keys(variables).sort()).toEqual([...new Set(expected)].sort());
    expect(variables.POWERTOOLS_SERVICE_NAME).toBe(profile.service);
    for (const { table } of profile.tables) expect(variables[table.envVar]).toEqual({ Ref: tableId(table) });
    if (profile.queue === 'send')
      expect(variables.SCAN_QUEUE_URL).toEqual({ Ref: logicalId(pipeline.queue) });
    if (profile.uploads) {
      expect(variables.UPLOAD_BUCKET).toEqual({ Ref: logicalId(pipeline.uploadsBucket) });
    }
  });

  it('may use no AWS service beyond its tables, the scan queue and the uploads bucket', () => {
    const actions = actionsOn(dataStatements(template, fn));
    expect(actions.filter((a) => !/^(dynamodb|sqs|s3):/.test(a))).toEqual([]);
    for (const statement of dataStatements(template, fn)) expect(statement.Effect).toBe('Allow');
  });

  it('reaches only its own tables (and their indexes), reading where it only reads', () => {
    const statements = only(dataStatements(template, fn), 'dynamodb');
    expect(resourcesOf(statements)).toEqual(
      [
        ...new Set(
          profile.tables.flatMap(({ table }) => tableResources(table).map((r) => JSON.stringify(r))),
        ),
      ].sort(),
    );
    for (const { table, access } of profile.tables) {
      const actions = actionsOn(statements, arnOf(tableId(table)));
      expect(actions).toEqual(expect.arrayContaining(['dynamodb:GetItem', 'dynamodb:Query']));
      if (access === 'RO') expect(actions.filter((a) => !READ_ACTION.test(a))).toEqual([]);
      else expect(actions).toEqual(expect.arrayContaining(['dynamodb:PutItem', 'dynamodb:UpdateItem']));
    }
  });

  it('uses the scan queue only as its role requires', () => {
    const statements = only(dataStatements(template, fn), 'sqs');
    if (profile.queue === undefined) {
      expect(statements).toEqual([]);
      return;
    }
    expect(resourcesOf(statements)).toEqual([JSON.stringify(queueArn)]);
    const actions = actionsOn(statements);
    if (profile.queue === 'send')
      expect(actions).toEqual(['sqs:GetQueueAttributes', 'sqs:GetQueueUrl', 'sqs:SendMessage']);
    else {
      expect(actions).toEqual(expect.arrayContaining(['sqs:ReceiveMessage', 'sqs:DeleteMessage']));
      expect(actions).not.toContain('sqs:SendMessage');
    }
  });

  it('uses the uploads bucket only as its role requires: one action, on uploads/* only', () => {
    const statements = only(dataStatements(template, fn), 's3');
    if (profile.uploads === undefined) {
      expect(statements).toEqual([]);
      return;
    }
    expect(resourcesOf(statements)).toEqual([JSON.stringify(uploadsArn)]);
    expect(actionsOn(statements)).toEqual([profile.uploads === 'write' ? 's3:PutObject' : 's3:GetObject']);
  });
});

describe('least privilege, in words', () => {
  const dynamoResources = (fn: ServiceFunction) =>
    resourcesOf(only(dataStatements(template, fn), 'dynamodb'));
  const fnOf = (key: string): ServiceFunction => {
    const fn = stack.api.functions.get(key);
    if (!fn) throw new Error(`No function for ${key}`);
    return fn;
  };
  const readRoutes = ROUTES.filter((r) => r.path.startsWith('/v1/packages') || r.path === '/v1/bulk');

  it('every package read route reads the packages table, and only reads', () => {
    expect(readRoutes.length).toBeGreaterThan(0);
    for (const route of readRoutes) {
      expect(route.tables).toEqual([{ table: PACKAGES_TABLE, access: 'RO' }]);
      const fn = fnOf(`${route.method} ${route.path}`);
      const actions = actionsOn(dataStatements(template, fn));
      expect(actions.filter((a) => WRITE_ACTION.test(a) || !READ_ACTION.test(a))).toEqual([]);
    }
  });

  it('the scan API cannot read the package records (a tarball scan must not reach them)', () => {
    for (const key of [
      'POST /v1/scan',
      'POST /v1/scan/tarball',
      'POST /v1/scan/upload-url',
      'GET /v1/scan/{job_id}',
    ]) {
      expect(dynamoResources(fnOf(key))).toEqual([JSON.stringify(arnOf(tableId(JOBS_TABLE)))]);
    }
  });

  it('the scanner cannot write to the uploads bucket nor send scan messages', () => {
    const actions = actionsOn(dataStatements(template, pipeline.scanner));
    expect(actions.filter((a) => /^s3:(Put|Delete)|^sqs:Send/.test(a))).toEqual([]);
  });

  it('no function may list, delete or re-permission uploads', () => {
    for (const [, fn] of functions) {
      const actions = actionsOn(dataStatements(template, fn));
      expect(actions.filter((a) => a.startsWith('s3:') && !/^s3:(PutObject|GetObject)$/.test(a))).toEqual([]);
    }
  });

  it('function roles carry no AWS managed policy', () => {
    for (const [, fn] of functions) {
      const role = template.toJSON().Resources[logicalId(fn.role!)] as {
        Properties: Record<string, unknown>;
      };
      expect(role.Properties.ManagedPolicyArns).toBeUndefined();
    }
  });

  it('every Lambda role in the stack is a service function role, or CDK’s bucket-notification handler', () => {
    const lambdaRoles = Object.keys(template.findResources('AWS::IAM::Role')).filter((id) =>
      JSON.stringify(template.toJSON().Resources[id]).includes('lambda.amazonaws.com'),
    );
    const own = functions.map(([, fn]) => logicalId(fn.role!));
    expect(lambdaRoles.filter((id) => !own.includes(id))).toEqual([
      expect.stringMatching(/^BucketNotificationsHandler/),
    ]);
    // ...whose only grant beyond its logs is writing this bucket's notification configuration.
    const handlerRole = lambdaRoles.find((id) => !own.includes(id)) as string;
    expect(roleStatements(template, handlerRole)).toEqual([
      {
        Action: 's3:PutBucketNotification',
        Effect: 'Allow',
        Resource: arnOf(logicalId(pipeline.uploadsBucket)),
      },
    ]);
  });
});
