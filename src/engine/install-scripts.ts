/**
 * package.json: metadata, lifecycle-script flags, the files those scripts run, and the rules
 * that apply to the script strings and dependency specifiers themselves.
 */
import type { InstallScripts } from '../contract/schemas';
import { analyzeScript } from './script-behaviour';
import { inlineNodeCode, scriptTargets } from './shell';
import { LineIndex, escapeRegExp, snippetOf } from './text';
import { finding, type FindingSpec } from './findings';
import type { Finding, PackageMetadata } from './types';

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

export const LIFECYCLE = ['preinstall', 'install', 'postinstall', 'prepare'] as const;

/** Scripts that are common, well understood and not worth a capability finding on their own. */
const KNOWN_BENIGN_SCRIPT =
  /^(?:node-gyp rebuild|node-gyp-build(?:-optional-packages)?|prebuild-install(?: \|\| node-gyp rebuild)?(?: --\S+)*|husky(?: install)?|npx only-allow \w+|only-allow \w+|patch-package|is-ci \|\| husky(?: install)?|opencollective-postinstall(?: \|\| (?:true|exit 0))?|ngcc)\s*$/i;

export interface InstallAnalysis {
  metadata: PackageMetadata;
  flags: InstallScripts;
  findings: Finding[];
  /** Files (package-relative) that lifecycle scripts run. */
  installFiles: Set<string>;
  /** Inline code from `node -e`, to analyse as install-time JavaScript. */
  inlineCode: { label: string; code: string; line: number }[];
  /** Lifecycle scripts present, with their command. */
  scripts: { name: string; command: string; line: number }[];
  parseProblem?: string;
}

function strRecord(v: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  if (v && typeof v === 'object' && !Array.isArray(v)) {
    for (const [k, x] of Object.entries(v as Record<string, unknown>)) if (typeof x === 'string') out[k] = x;
  }
  return out;
}

function repoUrl(v: unknown): string | undefined {
  if (typeof v === 'string') return v;
  if (v && typeof v === 'object' && typeof (v as { url?: unknown }).url === 'string')
    return (v as { url: string }).url;
  return undefined;
}

export function readMetadata(pkg: Record<string, unknown>): PackageMetadata {
  const s = (k: string) => (typeof pkg[k] === 'string' ? (pkg[k] as string) : undefined);
  const bin: Record<string, string> =
    typeof pkg.bin === 'string'
      ? { [(s('name') ?? 'bin').replace(/^@[^/]+\//, '')]: pkg.bin }
      : strRecord(pkg.bin);
  const license =
    s('license') ??
    (pkg.license && typeof pkg.license === 'object' ? (pkg.license as { type?: string }).type : undefined);
  return {
    name: s('name') ?? '',
    version: s('version') ?? '',
    description: s('description'),
    license: typeof license === 'string' ? license : undefined,
    repository: repoUrl(pkg.repository),
    homepage: s('homepage'),
    main: s('main'),
    module: s('module'),
    browser: s('browser'),
    types: s('types') ?? s('typings'),
    type: s('type'),
    exports: pkg.exports,
    bin,
    scripts: strRecord(pkg.scripts),
    dependencies: strRecord(pkg.dependencies),
    optionalDependencies: strRecord(pkg.optionalDependencies),
    peerDependencies: strRecord(pkg.peerDependencies),
    bundled: bundledNames(pkg),
    workspaces: workspaceGlobs(pkg.workspaces),
    keywords: Array.isArray(pkg.keywords)
      ? pkg.keywords.filter((k): k is string => typeof k === 'string')
      : [],
  };
}

/** `workspaces`: a list of folder globs, or `{ packages: [...] }` (Yarn's form). */
function workspaceGlobs(v: unknown): string[] {
  const list = Array.isArray(v)
    ? v
    : v && typeof v === 'object'
      ? (v as { packages?: unknown }).packages
      : undefined;
  return Array.isArray(list) ? list.filter((g): g is string => typeof g === 'string').slice(0, 50) : [];
}

/**
 * The script a command runs in every workspace (`npm run build --workspaces`, `npm run x -ws`,
 * `yarn workspaces foreach run x`, `pnpm -r run x`, `lerna run x`), when it names one.
 */
export function workspaceScript(command: string): string | undefined {
  const m =
    /\bnpm\s+run(?:-script)?\s+([\w:.-]+)\b[^;&|\n]*\s(?:--workspaces|-ws|--workspace[=\s]|-w\s)/.exec(
      command,
    ) ??
    /\bnpm\s+run(?:-script)?\s+(?:--workspaces|-ws|--workspace[=\s]\S+|-w\s+\S+)\s+([\w:.-]+)/.exec(
      command,
    ) ??
    /\byarn\s+workspaces\s+(?:foreach\s+(?:-\S+\s+)*)?run\s+([\w:.-]+)/.exec(command) ??
    /\bpnpm\s+(?:-r|--recursive)\s+(?:run\s+)?([\w:.-]+)/.exec(command) ??
    /\blerna\s+run\s+([\w:.-]+)/.exec(command);
  return m?.[1];
}

/** `bundleDependencies` (or `bundledDependencies`): a list of names, or `true` for every dependency. */
function bundledNames(pkg: Record<string, unknown>): string[] {
  const declared = pkg.bundleDependencies ?? pkg.bundledDependencies;
  if (declared === true) return Object.keys(strRecord(pkg.dependencies));
  return Array.isArray(declared) ? declared.filter((n): n is string => typeof n === 'string') : [];
}

/** Scripts of a package.json that is not valid JSON (comments, trailing commas): read line by line. */
function scriptsFromText(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const m of text.matchAll(/"(preinstall|install|postinstall|prepare)"\s*:\s*"((?:\\.|[^"\\])*)"/g)) {
    out[m[1]!] ??= m[2]!.replace(/\\(.)/g, '$1');
  }
  return out;
}

/** The package file a script names (`lib/setup`, `./probe.js`): as written, or as Node resolves it. */
function scriptFile(target: string, fileExists: (p: string) => boolean): string | undefined {
  return [target, `${target}.js`, `${target}/index.js`, `${target}.cjs`, `${target}.mjs`].find((c) =>
    fileExists(c),
  );
}

/**
 * A lifecycle command with the package scripts it runs by name (`npm run setup`, `npm run-script x`,
 * `yarn x`, `yarn run x`, `pnpm x`, `pnpm run x`, `bun run x`, `npm-run-all a b`, `run-s`/`run-p`),
 * followed a few levels deep: `[undefined, command]` first, then `[name, script]` for each.
 */
export function runChain(command: string, scripts: Record<string, string>): [string | undefined, string][] {
  const out: [string | undefined, string][] = [[undefined, command]];
  const seen = new Set<string>();
  const queue: [string, number][] = [[command, 0]];
  while (queue.length && out.length < 12) {
    const [cmd, depth] = queue.shift()!;
    if (depth >= 3) continue;
    const names: string[] = [];
    for (const m of cmd.matchAll(
      /(?:^|[;&|(]\s*|\s)(?:npm\s+(?:run(?:-script)?|rum|urn)|yarn(?:\s+run)?|pnpm(?:\s+run)?|bun\s+run)\s+(?:--?[\w-]+\s+)*([\w:.@/-]+)/g,
    ))
      names.push(m[1]!);
    for (const m of cmd.matchAll(
      /(?:^|[;&|]\s*)(?:npm-run-all|run-s|run-p)((?:\s+(?:--?[\w-]+|[\w:.@/-]+))+)/g,
    ))
      names.push(
        ...m[1]!
          .trim()
          .split(/\s+/)
          .filter((w) => !w.startsWith('-')),
      );
    for (const n of names) {
      const script = Object.hasOwn(scripts, n) ? scripts[n] : undefined;
      if (typeof script !== 'string' || seen.has(n)) continue;
      seen.add(n);
      out.push([n, script]);
      queue.push([script, depth + 1]);
    }
  }
  return out;
}

export function analyzePackageJson(
  text: string | undefined,
  path: string,
  fileExists: (p: string) => boolean,
  /** The lifecycle hooks read (a bundled package's `prepare` never runs from a registry install). */
  hooks: readonly string[] = LIFECYCLE,
): InstallAnalysis {
  const findings: Finding[] = [];
  const lines = new LineIndex(text ?? '');
  let pkg: Record<string, unknown> = {};
  let parseProblem: string | undefined;
  if (text !== undefined) {
    try {
      const v = JSON.parse(text) as unknown;
      if (v && typeof v === 'object' && !Array.isArray(v)) pkg = v as Record<string, unknown>;
      else parseProblem = 'package.json is not a JSON object';
    } catch (err) {
      parseProblem = `package.json is not valid JSON (${(err as Error).message.slice(0, 80)})`;
    }
  } else parseProblem = 'the package has no package.json';
  const metadata = readMetadata(pkg);
  if (parseProblem && text !== undefined) {
    const loose = scriptsFromText(text);
    metadata.scripts = { ...loose, ...metadata.scripts };
  }

  const lineOf = (needle: string, after = 0): number => {
    const i = (text ?? '').indexOf(needle, after);
    return i === -1 ? 1 : lines.lineOf(i);
  };

  const flags: InstallScripts = { preinstall: false, install: false, postinstall: false, prepare: false };
  const installFiles = new Set<string>();
  const inlineCode: InstallAnalysis['inlineCode'] = [];
  const scripts: InstallAnalysis['scripts'] = [];
  const add = (f: DistributiveOmit<FindingSpec, 'file' | 'install_time'>) =>
    findings.push(finding({ ...f, file: path, install_time: true }));

  // Scripts defined in nested objects of an invalid manifest still count (read line by line).
  const entries: [string, string, number][] = [];
  if (parseProblem && text !== undefined) {
    for (const m of text.matchAll(/"(preinstall|install|postinstall|prepare)"\s*:\s*"((?:\\.|[^"\\])*)"/g)) {
      if (hooks.includes(m[1]!)) entries.push([m[1]!, m[2]!.replace(/\\(.)/g, '$1'), lines.lineOf(m.index)]);
    }
  } else {
    for (const name of hooks) {
      const cmd = metadata.scripts[name];
      if (cmd !== undefined)
        entries.push([name, cmd, lineOf(`"${name}"`, (text ?? '').indexOf('"scripts"'))]);
    }
  }

  for (const [name, command, line] of entries) {
    flags[name as keyof InstallScripts] = true;
    scripts.push({ name, command, line });
    const benign = KNOWN_BENIGN_SCRIPT.test(command.trim());
    if (!benign) {
      add({
        capability: 'install_scripts',
        rule: 'pkg.install-script',
        message: `runs "${command.slice(0, 120)}" as its ${name} script during npm install`,
        line,
        snippet: snippetOf(`"${name}": "${command}"`),
      });
    }
    // The hook's own command, and the package scripts it runs (`npm run setup`, `yarn build`):
    // they run at install time too.
    for (const [via, cmd] of runChain(command, metadata.scripts)) {
      const label = via ? `${name} script (through npm run ${via})` : `${name} script`;
      for (const hit of analyzeScript(cmd, 'sh', name !== 'prepare')) {
        add({
          threat_type: hit.threat_type,
          rule: hit.rule,
          message: `${label} ${hit.message}`,
          line,
          snippet: snippetOf(`"${name}": "${command}"`),
          variant: hit.variant,
          steps: hit.steps,
          adjust: name === 'prepare' ? ['prepareScript'] : undefined,
        });
      }
      // `node .` / `node ./`: the package's own entry point (its main, else index.js).
      const selfRun = /(?:^|[;&|]\s*|\s)(?:node|nodejs)\s+(?:--?[\w-]+(?:=\S+)?\s+)*\.\/?(?=\s|$|[;&|])/.test(
        cmd,
      );
      const main = typeof pkg.main === 'string' ? pkg.main.replace(/^\.\//, '') : undefined;
      for (const target of [...scriptTargets(cmd), ...(selfRun ? [main ?? 'index.js'] : [])]) {
        const found = scriptFile(target, fileExists);
        if (found) installFiles.add(found);
      }
      for (const code of inlineNodeCode(cmd)) {
        inlineCode.push({ label: `${path}#scripts.${via ?? name}`, code, line });
        // `node -e "require('./lib/probe').run()"`: the files it loads run at install time too.
        for (const m of code.matchAll(/\b(?:require|import)\s*\(\s*['"`](\.{1,2}\/[^'"`]+)['"`]\s*\)/g)) {
          const target = m[1]!.replace(/^\.\//, '');
          const found = scriptFile(target, fileExists);
          if (found) installFiles.add(found);
        }
      }
    }
  }

  // npm runs `node-gyp rebuild` for a binding.gyp when there is no install/preinstall script.
  if (fileExists('binding.gyp') && !flags.install && !flags.preinstall) {
    flags.install = true;
    scripts.push({ name: 'install', command: 'node-gyp rebuild (implicit: binding.gyp)', line: 1 });
  }

  // Dependencies fetched from arbitrary URLs instead of the registry.
  for (const field of ['dependencies', 'optionalDependencies', 'devDependencies', 'peerDependencies']) {
    const deps = strRecord(pkg[field]);
    for (const [dep, spec] of Object.entries(deps)) {
      const isHttp = /^http:\/\//i.test(spec);
      const isUrl = /^https?:\/\//i.test(spec);
      if (!isUrl) continue;
      // A tarball laid out as a registry serves it (`/<name>/-/<name>-<version>.tgz`) named by URL
      // in place of the registry's own copy: a host made to pass for a registry, for a package by
      // its registry name. (Distributions outside the registry use their own layout.)
      const bare = dep.replace(/^@[^/]+\//, '');
      const registryLayout =
        spec.length < 2000 &&
        new RegExp(
          `^https?://[^/]+(?:/[^/]+)*/${escapeRegExp(dep).replace('/', '(?:/|%2[fF])')}/-/${escapeRegExp(bare)}-\\d[^/]*\\.tgz(?:[?#].*)?$`,
          'i',
        ).test(spec);
      const line = lineOf(`"${dep}"`, (text ?? '').indexOf(`"${field}"`));
      add({
        threat_type: 'install_script_injection',
        rule: 'pkg.url-dependency',
        message: `${field}.${dep} is fetched from ${spec.slice(0, 100)} instead of the registry${isHttp ? ' over plain HTTP' : registryLayout ? ', a host laid out as a registry' : ''}; its install scripts would run too`,
        line,
        snippet: snippetOf(`"${dep}": "${spec}"`),
        variant:
          field === 'devDependencies'
            ? 'dev'
            : isHttp
              ? 'plainHttp'
              : registryLayout
                ? 'registryLayout'
                : undefined,
      });
    }
  }
  return { metadata, flags, findings, installFiles, inlineCode, scripts, parseProblem };
}
