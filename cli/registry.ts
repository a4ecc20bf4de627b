/**
 * Packuments for the client, read with Node's fetch so the one-file build stays small and starts
 * fast. The registry is `--registry`, PKGSCAN_REGISTRY, npm's own `npm_config_registry` (set when
 * run through npm or npx), else the default of npm's registry client. Scoped names are escaped as
 * npm escapes them. A 404 is an answer (the package does not exist); anything else that fails is a
 * service error.
 */
import npa from 'npm-package-arg';
import registryDefaults from 'npm-registry-fetch/lib/default-opts.js';
import { ServiceError } from './errors';

export interface Packument {
  readonly name?: string;
  readonly 'dist-tags'?: Record<string, string>;
  readonly versions?: Record<string, PackumentVersion>;
  /** Publish time of each version (full packuments only). */
  readonly time?: Record<string, string>;
}

export interface PackumentVersion {
  readonly name?: string;
  readonly version?: string;
  readonly deprecated?: string;
  readonly scripts?: Record<string, string>;
  readonly dependencies?: Record<string, string>;
  readonly dist?: { readonly tarball?: string; readonly integrity?: string };
}

/** Reads one packument; undefined when the registry has no such package. */
export type FetchPackument = (name: string) => Promise<Packument | undefined>;

export const DEFAULT_REGISTRY: string = (registryDefaults as { registry: string }).registry;

export function registryFetcher(opts: { registry?: string | undefined; timeoutMs: number }): FetchPackument {
  const base = (opts.registry ?? DEFAULT_REGISTRY).replace(/\/*$/, '/');
  return async (name) => {
    const url = `${base}${npa(name).escapedName ?? encodeURIComponent(name)}`;
    let lastError: unknown;
    for (let attempt = 0; attempt < 3; attempt++) {
      try {
        const res = await fetch(url, {
          headers: { accept: 'application/json' },
          signal: AbortSignal.timeout(opts.timeoutMs),
        });
        if (res.status === 404) return undefined;
        if (res.ok) return (await res.json()) as Packument;
        lastError = new Error(`HTTP ${res.status}`);
        if (res.status < 500 && res.status !== 429) break;
      } catch (error) {
        lastError = error;
      }
      await new Promise((resolve) => setTimeout(resolve, 250 * 2 ** attempt));
    }
    throw new ServiceError(
      `The registry could not be reached to resolve '${name}': ${(lastError as Error).message}`,
    );
  };
}
