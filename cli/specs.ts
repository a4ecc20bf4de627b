/**
 * `name@version` arguments, resolved the way npm resolves them: npm-package-arg parses, the
 * package's packument comes from the registry, and npm-pick-manifest picks the version npm would
 * install (the `latest` tag when it satisfies the range, else the highest match; deprecated and
 * prerelease versions as npm treats them). Every argument gets an answer: a package the registry
 * does not have, or a version it never published, is a "not found" entry with the closest real,
 * popular names, never dropped.
 */
import npa from 'npm-package-arg';
import pickManifest from 'npm-pick-manifest';
import semver from 'semver';
import { UsageError } from './errors';
import { PackageCollector } from './lockfiles/common';
import type { FetchPackument, Packument } from './registry';
import type { NotFoundSpec, ParsedInput } from './types';

/** npm-package-arg's result; its published types predate `subSpec` (aliases). */
export type NpaResult = npa.Result & { subSpec?: npa.Result };

export interface RegistrySpec {
  readonly raw: string;
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
    return { raw: arg, name: spec.name, type: spec.type, selector: spec.fetchSpec ?? spec.rawSpec };
  }
  throw new UsageError(
    `'${arg}' is not a registry package spec (it reads as ${spec.type}); use name, name@version, name@range or name@tag`,
  );
}

/** The version npm would install for `spec`, or undefined when none matches. */
export function pickVersion(spec: RegistrySpec, packument: Packument): string | undefined {
  try {
    const picked = pickManifest(packument, spec.selector);
    // A packument's version objects carry their own version; a sparse one is matched by its key.
    return (
      picked.version ??
      Object.entries(packument.versions ?? {}).find(([, manifest]) => manifest === picked)?.[0]
    );
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code === 'ETARGET' || code === 'ENOVERSIONS' || code === 'E403') return undefined;
    throw error;
  }
}

export async function resolveSpecs(
  args: readonly string[],
  fetchPackument: FetchPackument,
  suggest: (name: string) => Promise<string[]>,
): Promise<ParsedInput> {
  const specs = args.map(parseSpec);
  const packuments = new Map<string, Promise<Packument | undefined>>();
  const collector = new PackageCollector();
  const notFound: NotFoundSpec[] = [];
  const published = new Map<string, string>();
  await Promise.all(
    specs.map(async (spec) => {
      let pending = packuments.get(spec.name);
      if (!pending) {
        pending = fetchPackument(spec.name);
        packuments.set(spec.name, pending);
      }
      const packument = await pending;
      if (packument === undefined) {
        notFound.push({
          spec: spec.raw,
          name: spec.name,
          reason: 'no_such_package',
          message: `no package named '${spec.name}' in the registry`,
          suggestions: await suggest(spec.name),
        });
        return;
      }
      const version = pickVersion(spec, packument);
      if (version === undefined) {
        const versions = Object.keys(packument.versions ?? {});
        const latest = packument['dist-tags']?.latest;
        notFound.push({
          spec: spec.raw,
          name: spec.name,
          reason: 'no_matching_version',
          message:
            versions.length === 0
              ? `'${spec.name}' has no published versions`
              : `no version of '${spec.name}' matches '${spec.selector}'${latest ? ` (latest is ${latest})` : ''}`,
          suggestions: latest && semver.valid(latest) ? [`${spec.name}@${latest}`] : [],
        });
        return;
      }
      const time = packument.time?.[version];
      if (time) published.set(`${spec.name}@${version}`, time);
      collector.add(spec.name, version, { direct: true, dev: false });
    }),
  );
  notFound.sort((a, b) => a.spec.localeCompare(b.spec));
  const packages = collector.result();
  for (const p of packages) {
    const time = published.get(`${p.name}@${p.version}`);
    if (time) p.published = time;
  }
  return {
    source: 'command line',
    format: 'spec',
    formatVersion: '',
    packages,
    skipped: collector.skipped,
    notFound,
  };
}
