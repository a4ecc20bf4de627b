/**
 * Request bodies of the API as runtime schemas, in zod's tree-shakable `zod/mini` form: the
 * handlers that parse them (bulk, scan) are on the request path, and the full zod API costs ≈ 70 KB
 * more per bundle (docs/infrastructure.md, bundles). The same schemas feed the OpenAPI document
 * through src/contract/schemas.ts. English error messages are configured here, since `zod/mini`
 * loads no locale by itself.
 */
import * as z from 'zod/mini';
import { en } from 'zod/v4/locales';

z.config(en());

export const PackageRef = z.strictObject({
  name: z.string().check(z.minLength(1), z.maxLength(214)),
  version: z.optional(z.string().check(z.minLength(1), z.maxLength(256))),
  registry: z.optional(z.string()),
});
export type PackageRef = z.infer<typeof PackageRef>;

export const BULK_MAX = 100;
export const BulkRequest = z.strictObject({
  packages: z.array(PackageRef).check(z.minLength(1), z.maxLength(BULK_MAX)),
});
export type BulkRequest = z.infer<typeof BulkRequest>;

export const ScanRequest = PackageRef;
export type ScanRequest = z.infer<typeof ScanRequest>;
