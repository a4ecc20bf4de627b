/**
 * The API's routes: one Lambda handler per route, in `lambdas/handlers/<handler>.ts`,
 * exporting `handler`. The CDK stack and the local HTTP server both build from this list.
 */
import type { TableSpec } from './shared/store/tables';
import { JOBS_TABLE, PACKAGES_TABLE } from './shared/store/tables';

export type Access = 'RO' | 'RW';

export interface RouteSpec {
  readonly method: 'GET' | 'POST';
  /** API Gateway resource path; `{param}` segments become path parameters. */
  readonly path: string;
  /** File name (without extension) under lambdas/handlers/. */
  readonly handler: string;
  /** Tables the function may use, with the least access it needs. */
  readonly tables: ReadonlyArray<{ readonly table: TableSpec; readonly access: Access }>;
  /**
   * The scan queue: `send` gives SCAN_QUEUE_URL, sqs:SendMessage and sqs:GetQueueAttributes
   * (queue depth for estimates).
   */
  readonly queue?: 'send';
  /** The upload bucket: `write` gives UPLOAD_BUCKET and s3:PutObject on `uploads/*` (also for presigning). */
  readonly uploads?: 'write';
  /** Cross-origin reads allowed (browser pages may call it). */
  readonly cors: boolean;
}

/** The read API (issue 2). */
const READ_ROUTES: readonly RouteSpec[] = [
  { method: 'GET', path: '/health', handler: 'health', tables: [], cors: true },
  {
    method: 'GET',
    path: '/v1/packages',
    handler: 'list-packages',
    tables: [{ table: PACKAGES_TABLE, access: 'RO' }],
    cors: true,
  },
  {
    method: 'GET',
    path: '/v1/packages/{name}',
    handler: 'get-package',
    tables: [{ table: PACKAGES_TABLE, access: 'RO' }],
    cors: true,
  },
  {
    method: 'GET',
    path: '/v1/packages/{name}/{version}',
    handler: 'get-package-version',
    tables: [{ table: PACKAGES_TABLE, access: 'RO' }],
    cors: true,
  },
  {
    method: 'POST',
    path: '/v1/bulk',
    handler: 'bulk',
    tables: [{ table: PACKAGES_TABLE, access: 'RO' }],
    cors: true,
  },
];

/** The scan pipeline's routes (issue 4), part of ROUTES. */
export const SCAN_ROUTES: readonly RouteSpec[] = [
  {
    method: 'POST',
    path: '/v1/scan',
    handler: 'scan-request',
    tables: [{ table: JOBS_TABLE, access: 'RW' }],
    queue: 'send',
    cors: false,
  },
  {
    method: 'POST',
    path: '/v1/scan/tarball',
    handler: 'scan-tarball',
    tables: [{ table: JOBS_TABLE, access: 'RW' }],
    queue: 'send',
    uploads: 'write',
    cors: false,
  },
  {
    method: 'POST',
    path: '/v1/scan/upload-url',
    handler: 'scan-upload-url',
    tables: [{ table: JOBS_TABLE, access: 'RW' }],
    uploads: 'write',
    cors: false,
  },
  {
    // RW: a job whose message never arrived is marked failed when it is read (no job waits forever).
    method: 'GET',
    path: '/v1/scan/{job_id}',
    handler: 'get-scan-job',
    tables: [{ table: JOBS_TABLE, access: 'RW' }],
    cors: true,
  },
];

/** Every route the API serves: the stack and the local server both build from this list. */
export const ROUTES: readonly RouteSpec[] = [...READ_ROUTES, ...SCAN_ROUTES];

/** Error message for a path or method the API does not have (API Gateway and local server alike). */
export const UNKNOWN_ROUTE_MESSAGE = 'No such route: see the API description in openapi/openapi.json';

/** Content types API Gateway hands to the Lambda base64-encoded (the stack and the local server). */
export const BINARY_MEDIA_TYPES: readonly string[] = ['multipart/form-data'];

/** CORS preflight answer of the `cors` routes (the stack's mock OPTIONS integration, and locally). */
export const CORS_PREFLIGHT = {
  allowHeaders: [
    'Content-Type',
    'X-Amz-Date',
    'Authorization',
    'X-Api-Key',
    'X-Amz-Security-Token',
    'X-Amz-User-Agent',
  ],
  maxAgeSeconds: 3600,
} as const;
