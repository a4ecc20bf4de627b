/**
 * Validation of request inputs: package names, versions, registries and list parameters.
 * Pure functions; every failure is a 400 whose message names the offending input.
 */
import { packageNameProblem, versionSelector, type VersionSelector } from '../../../src/contract/names';
import { badRequest } from './errors';
import { REGISTRIES } from '../../../src/contract/registries';

export const LIMIT_DEFAULT = 50;
export const LIMIT_MAX = 100;
export const QUERY_MAX_LENGTH = 214;
export const DEFAULT_REGISTRY = 'npm';

/**
 * Decodes a package name taken from a path segment. API Gateway passes `%40scope%2Fname`
 * through as sent; clients also send `@scope%2Fname`. npm names never contain `%`, so one
 * decoding pass is unambiguous.
 */
export function decodeNameParam(raw: string | undefined): string {
  if (raw === undefined || raw === '') throw badRequest('Path parameter name is required');
  let name = raw;
  if (raw.includes('%')) {
    try {
      name = decodeURIComponent(raw);
    } catch {
      throw badRequest('Path parameter name is not valid URL encoding');
    }
  }
  return assertPackageName(name, 'Path parameter name');
}

/** Accepts every name the registry may hold (including legacy names with capitals). */
export function assertPackageName(name: unknown, field: string): string {
  const problem = packageNameProblem(name);
  if (problem !== undefined) throw badRequest(`${field} ${problem}`);
  return name as string;
}

export type { VersionSelector };

/** An exact semver version (a leading `v` is dropped) or a dist-tag such as `latest`. */
export function parseVersionSelector(raw: unknown, field: string): VersionSelector {
  const selector = versionSelector(raw);
  if ('problem' in selector) throw badRequest(`${field} ${selector.problem}`);
  return selector;
}

export function assertRegistry(raw: string | undefined, field: string): string {
  const registry = raw ?? DEFAULT_REGISTRY;
  if (!(REGISTRIES as readonly string[]).includes(registry)) {
    throw badRequest(
      `${field} '${truncate(registry)}' is not supported; supported: ${REGISTRIES.join(', ')}`,
    );
  }
  return registry;
}

export interface ListParams {
  readonly limit: number;
  readonly offset: number;
  /** Lower-cased search text; undefined when listing. */
  readonly q: string | undefined;
}

const KNOWN_LIST_PARAMS = new Set(['limit', 'offset', 'q']);

/**
 * Parses list/search query parameters from API Gateway's multi-value map, so a repeated
 * parameter is caught. Unknown parameters are rejected: a typo (`ofset`) must not silently
 * return the first page.
 */
export function parseListParams(multi: Record<string, string[] | undefined> | null | undefined): ListParams {
  const params = multi ?? {};
  for (const key of Object.keys(params)) {
    if (!KNOWN_LIST_PARAMS.has(key)) {
      throw badRequest(`Unknown query parameter '${truncate(key)}'; allowed: limit, offset, q`);
    }
  }
  const single = (key: string): string | undefined => {
    const values = params[key];
    if (values === undefined || values.length === 0) return undefined;
    if (values.length > 1) throw badRequest(`Query parameter ${key} must be given at most once`);
    return values[0];
  };
  const limit = parseCount(single('limit'), 'limit', LIMIT_DEFAULT, 1);
  const offset = parseCount(single('offset'), 'offset', 0, 0);
  const rawQ = single('q');
  if (rawQ !== undefined && rawQ.length > QUERY_MAX_LENGTH) {
    throw badRequest(`Query parameter q must be at most ${QUERY_MAX_LENGTH} characters`);
  }
  const q = rawQ === undefined || rawQ.trim() === '' ? undefined : rawQ.trim().toLowerCase();
  return { limit: Math.min(limit, LIMIT_MAX), offset, q };
}

export const MAX_OFFSET = 1_000_000;

function parseCount(raw: string | undefined, key: string, fallback: number, min: number): number {
  if (raw === undefined) return fallback;
  if (!/^\d{1,9}$/.test(raw)) {
    throw badRequest(`Query parameter ${key} must be a whole number, got '${truncate(raw)}'`);
  }
  const value = Number(raw);
  if (value < min) throw badRequest(`Query parameter ${key} must be at least ${min}`);
  if (key === 'offset' && value > MAX_OFFSET) {
    throw badRequest(`Query parameter offset must be at most ${MAX_OFFSET}`);
  }
  return value;
}

function truncate(s: string): string {
  return s.length > 40 ? `${s.slice(0, 40)}…` : s;
}
