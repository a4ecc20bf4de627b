/**
 * `name@version` arguments. Exact versions are taken as they are; ranges and dist-tags are
 * resolved from the package's packument through npm's own registry client, the way npm itself
 * picks (the `latest` tag when it satisfies the range, else the highest matching version).
 */
import npa from 'npm-package-arg';
import semver from 'semver';
import { ServiceError, UsageError } from './errors';
import { PackageCollector } from './lockfiles/common';
import type { ParsedInput } from './types';

export interface Packument {
  readonly 'dist-tags'?: Record<string, string>;
  readonly versions?: Record<string, unknown>;
}

export interface SpecOptions {
  /** Registry base URL; npm-registry-fetch's default when undefined. */
  readonly registry?: string;
  readonly timeoutMs: number;
  /** Test seam: replaces the registry call. */
  readonly fetchPackument?: (name: string) => Promise<Packument>;
}

/** npm-package-arg's result; its published types predate `subSpec` (aliases). */
export type NpaResult = npa.Result & { subSpec?: npa.Result };

const CORGI = 'application/vnd.npm.install-v1+json; q=1.0, application/json; q=0.8, */*';

interface RegistrySpec {
  readonly name: string;
  readonly type: 'version' | 'range' | 'tag';
  readonly selector: string;
}

/** Parses one argument, or throws a usage error saying why it is not a registry spec. */
export function parseSpec(arg: string): RegistrySpec {
  let spec: NpaResult;
  try {
    spec = npa(arg);
  } catch (error) {
    throw new UsageError(`'${arg}' is not a package spec: ${(error as Error).message}`);
  }
  if (spec.type === 'alias' && spec.subSpec) spec = spec.subSpec;
  if ((spec.type === 'version' || spec.type === 'range' || spec.type === 'tag') && spec.name) {
    return { name: spec.name, type: spec.type, selector: spec.fetchSpec ?? spec.rawSpec };
  }
  throw new UsageError(
    `'${arg}' is not a registry package spec (it reads as ${spec.type}); use name, name@version, name@range or name@tag`,
  );
}

/** The version npm would install for `spec` given the packument. */
export function pickVersion(spec: RegistrySpec, packument: Packument): string | undefined {
  const tags = packument['dist-tags'] ?? {};
  const versions = Object.keys(packument.versions ?? {});
  if (spec.type === 'tag') return tags[spec.selector];
  if (spec.type === 'version') return versions.includes(spec.selector) ? spec.selector : undefined;
  const latest = tags.latest;
  if (latest !== undefined && semver.satisfies(latest, spec.selector)) return latest;
  return semver.maxSatisfying(versions, spec.selector) ?? undefined;
}

async function registryPackument(name: string, opts: SpecOptions): Promise<Packument> {
  // Loaded on demand: only specs with ranges or tags need the registry client.
  const { default: registryFetch } = await import('npm-registry-fetch');
  try {
    return (await registryFetch.json(`/${npa(name).escapedName}`, {
      ...(opts.registry ? { registry: opts.registry } : {}),
      headers: { accept: CORGI },
      timeout: opts.timeoutMs,
      retry: { retries: 2 },
    })) as Packument;
  } catch (error) {
    const e = error as { statusCode?: number; code?: string; message: string };
    if (e.statusCode === 404 || e.code === 'E404')
      throw new UsageError(`Package '${name}' is not in the registry`);
    throw new ServiceError(`The registry could not be reached to resolve '${name}': ${e.message}`);
  }
}

export async function resolveSpecs(args: readonly string[], opts: SpecOptions): Promise<ParsedInput> {
  const specs = args.map(parseSpec);
  const fetchPackument = opts.fetchPackument ?? ((name: string) => registryPackument(name, opts));
  const packuments = new Map<string, Promise<Packument>>();
  const collector = new PackageCollector();
  await Promise.all(
    specs.map(async (spec, i) => {
      let version: string | undefined =
        spec.type === 'version' ? (semver.valid(spec.selector) ?? undefined) : undefined;
      if (version === undefined) {
        let pending = packuments.get(spec.name);
        if (!pending) {
          pending = fetchPackument(spec.name);
          packuments.set(spec.name, pending);
        }
        version = pickVersion(spec, await pending);
      }
      if (version === undefined) {
        throw new UsageError(`No version of '${spec.name}' matches '${spec.selector}' (from '${args[i]}')`);
      }
      collector.add(spec.name, version, { direct: true, dev: false });
    }),
  );
  return {
    source: 'command line',
    format: 'spec',
    formatVersion: '',
    packages: collector.result(),
    skipped: collector.skipped,
  };
}
