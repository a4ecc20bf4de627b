/**
 * The analysis engine: from an npm package tarball (or an unpacked directory) to the analysis
 * half of `PackageResponse` plus the evidence behind each verdict. Plain TypeScript, no AWS.
 *
 *   analyzeTarball(tgz, limits?)  – gzip-compressed tarball as a Buffer or a stream
 *   analyzeDirectory(dir, limits?) – an unpacked package folder (symlinks are not followed)
 *   analyzeFiles(files, ...)       – the in-memory core both of them use
 *
 * Nothing is executed and nothing is written to disk.
 */
import { lstat, open, readFile, readdir } from 'node:fs/promises';
import { join, posix } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { parse as parseYaml } from 'yaml';
import { cmakeAsShell } from './cmake';
import type { AgenticThreat } from '../contract/schemas';
import {
  agentFilePaths,
  isAgentFile,
  MODEL_TOPIC,
  PROMPT_PREFILTER,
  scanText,
  TEST_PATH,
  type TextContext,
} from './agentic';
import { SECTION_FOR_AI } from './agentic/semantic';
import { CapabilityCollector } from './capabilities';
import { buildDocs, declarationExports } from './docs';
import { analyzePackageJson, runChain, workspaceScript, type InstallAnalysis } from './install-scripts';
import { analyzeJsFile, type ModuleHost } from './js/analyze';
import { planChunks } from './js/bigfile';
import { cssValueLeak } from './js/detectors/page-hijack';
import { bareParse, wholeFragment } from './js/parse';
import type { Val } from './js/values';
import { magicKind, packageRules, type FileFacts } from './package-rules';
import { packageSignals, shadowingBins } from './package-signals';
import { assessRisk, type RiskInput } from '../policy/risk-policy';
import { finding } from './findings';
import type { RuleId } from './rules';
import { readTarball, isTextPath } from './tar';
import { LineIndex, decodeText, escapeRegExp, snippetOf } from './text';
import {
  analyzeScript,
  dialectOf,
  newScriptState,
  rustBuildHits,
  type ScriptDialect,
  type ScriptState,
} from './script-behaviour';
import {
  hookBodies,
  inlineNodeCode,
  makeCommands,
  ownCommandRuns,
  scriptTargets,
  sourcedFiles,
} from './shell';
import {
  analyzeCiScript,
  envGivenSecrets,
  scriptsGivenSecrets,
  analyzeEditorTasksFile,
  analyzeWorkflowFile,
  isCiWorkflow,
  isEditorTasks,
} from './workflows';
import {
  resolveLimits,
  type AnalysisLimits,
  type AnalysisResult,
  type Finding,
  type PackageFile,
  type PackageMetadata,
  type SkippedFile,
} from './types';

export { assessRisk } from '../policy/risk-policy';
export type { RiskInput, RiskAssessment } from '../policy/risk-policy';
export { DEFAULT_LIMITS, resolveLimits } from './types';
export type { AnalysisLimits, AnalysisResult, Finding, PackageMetadata, SkippedFile } from './types';

/** Threat findings below this confidence stay in `evidence` only. */
export const REPORT_MIN_CONFIDENCE = 0.35;
const MAX_THREATS = 100;
const MAX_PER_RULE_FILE = 5;

/**
 * xmrig-style configuration: a donate level (as a key, or as the miner's flag in a list of
 * arguments), or pools given as url + user (wallet).
 */
const MINER_CONFIG =
  /["']?donate-level["']?\s*:|--donate-level[=\s]+\d|"pools"\s*:\s*\[\s*\{[^\]]{0,400}?"url"\s*:\s*"[^"]*:\d{2,5}"[^\]]{0,400}?"user"\s*:|stratum\+(?:tcp|ssl):\/\//;
/** A Monero wallet address (95 characters of base58 after 4 or 8). */
const MONERO_ADDRESS = /(?<![\w/+])[48][0-9AB][1-9A-HJ-NP-Za-km-z]{93}(?![\w/+])/g;
/**
 * A remote host and port (`pool.example.net:443`) in the same few lines as an address: not this
 * machine, not a file's line (`index.js:42`), not a Monero node's or wallet's RPC port (a payment
 * gateway's configuration names those beside its own address).
 */
const HOST_PORT =
  /(?:^|[\s"'=/@])(?!localhost\b|127\.|0\.0\.0\.0\b|10\.|192\.168\.)[a-z0-9-]+(?:\.[a-z0-9-]+)*\.(?![cm]?[jt]sx?:|json:|py:|md:)[a-z]{2,}(?<!\blocal|\binternal):(?!1808[0-9]\b|2808[0-9]\b|3808[0-9]\b)\d{2,5}\b/i;

/**
 * A miner's configuration in a data file, whatever its keys are called: MINER_CONFIG, or a Monero
 * wallet address within a few lines of a host and port. The text it matched, if any.
 */
function minerConfig(text: string): string | undefined {
  const named = MINER_CONFIG.exec(text);
  if (named) return named[0];
  let n = 0;
  for (const m of text.matchAll(MONERO_ADDRESS)) {
    if (++n > 20) break;
    const near = text.slice(Math.max(0, m.index - 400), m.index + m[0].length + 400);
    if (HOST_PORT.test(near)) return m[0];
  }
  return undefined;
}
const CODE_EXT = /\.(?:[cm]?jsx?|[cm]?tsx?)$/i;
const DTS = /\.d\.[cm]?ts$/i;

/**
 * Configuration files at the package root that build, test and lint tools load as code when the
 * developer runs them (`next dev`, `vite build`, `eslint .`): they run as a project's entry does
 * (the fake take-home project whose `tailwind.config.js` fetches a second stage).
 */
const TOOL_CONFIG =
  /^(?:(?:tailwind|postcss|next|vite|vitest|webpack|rollup|babel|eslint|jest|nuxt|svelte|astro|tsup|prettier|metro|craco|remix|playwright|cypress)\.config\.[cm]?[jt]s|\.(?:eslintrc|babelrc|prettierrc)\.[cm]?js|gatsby-(?:config|node)\.[cm]?[jt]s)$/;
const MARKDOWN = /\.(?:md|markdown|mdx|txt|mdc)$/i;
/** A module hook installed: a loader extension, a replaced compile step, synchronous hooks. */
const MODULE_HOOK =
  /\b_?extensions\s*\[[^\]\n]{1,12}\]\s*=(?!=)|\._compile\s*=(?!=)|\bModule\.wrap\s*=(?!=)|\bregisterHooks\s*\(/;
/** `register('./hooks.mjs', …)` of Node's `module` (customisation hooks in a loader thread). */
const MODULE_REGISTER = /\bregister\s*\(\s*['"`]|\bregister\s*\(\s*new\s+URL\b/;
const NODE_MODULE = /['"`](?:node:)?module['"`]/;

/**
 * Whether a file's top lines leave unless an environment variable named after the package is set
 * (`if (process.env.SCHEMADOC_REGISTER_MCP !== '1') process.exit(0)`, `if (!process.env.X) return`):
 * an opt-in only its user can give. Variables every machine or CI has are not opt-ins.
 */
function optInGate(text: string, pkgName: unknown): boolean {
  if (typeof pkgName !== 'string') return false;
  const head = text.slice(0, 3000);
  const m =
    /^\s*if\s*\(\s*(?:!\s*process\.env\.([A-Za-z0-9_]+)|process\.env\.([A-Za-z0-9_]+)\s*!==?\s*['"][^'"]*['"])\s*\)\s*\{?\s*(?:process\.exit\(\s*0?\s*\)|return\b)/m.exec(
      head,
    );
  const name = m?.[1] ?? m?.[2];
  if (!name || /^(?:CI|HOME|USER|PATH|npm_|INIT_CWD|NODE_ENV|GITHUB_)/i.test(name)) return false;
  const words = new Set(
    pkgName
      .toLowerCase()
      .split(/[^a-z0-9]+/)
      .filter((w) => w.length >= 4),
  );
  return name
    .toLowerCase()
    .split('_')
    .some((w) => words.has(w));
}

/** The scripts a JavaScript GitHub Action's `action.yml` runs (`runs.main`, `pre`, `post`). */
function actionEntries(file: PackageFile | undefined): string[] {
  if (!file || file.truncated || file.data.length > 200_000) return [];
  let doc: unknown;
  try {
    doc = parseYaml(file.data.toString('utf8'), { maxAliasCount: 50, logLevel: 'error' });
  } catch {
    return [];
  }
  const runs = (doc as { runs?: Record<string, unknown> } | null)?.runs;
  if (!runs || typeof runs !== 'object' || !/^node\d*$/i.test(String(runs.using ?? ''))) return [];
  return (['pre', 'main', 'post'] as const)
    .map((k) => runs[k])
    .filter((x): x is string => typeof x === 'string' && x.trim() !== '')
    .map((x) => posix.normalize(x.trim()).replace(/^\.\//, ''));
}

/**
 * Files a tool's configuration at the package root loads before the code it runs: Bun's
 * `preload` in `bunfig.toml` (every `bun run` and `bun test` in the folder) and Mocha's `require`
 * (`.mocharc.*`, the `mocha` key of package.json). They run as a project's entry does when its
 * developer, or someone who cloned it, runs the tool.
 */
function configPreloads(byPath: Map<string, PackageFile>): string[] {
  const out: string[] = [];
  // (A spec without an extension is resolved as the tools do: `./test/setup` is setup.js or .ts.)
  const add = (spec: string) => {
    if (!/^\.{0,2}\//.test(spec) && !/\.[cm]?[jt]sx?$/i.test(spec)) return;
    const path = posix.normalize(spec.trim()).replace(/^\.\//, '');
    const found = ['', '.js', '.ts', '.mjs', '.cjs', '.mts', '.cts', '/index.js', '/index.ts']
      .map((ext) => path + ext)
      .find((p) => byPath.has(p));
    out.push(found ?? path);
  };
  const bun = byPath.get('bunfig.toml');
  if (bun && !bun.truncated && bun.data.length < 100_000) {
    // `preload = "./a.ts"` or `preload = ["./a.ts", "./b.ts"]`, at the top or under a table,
    // read line by line (a list may run over several lines).
    const lines = bun.data.toString('utf8').split('\n');
    for (let i = 0; i < lines.length; i++) {
      const m = /^[ \t]*preload[ \t]*=(.*)$/.exec(lines[i]!);
      if (!m) continue;
      let value = m[1]!;
      for (let k = i + 1; value.includes('[') && !value.includes(']') && k < lines.length && k < i + 50; k++)
        value += lines[k];
      for (const q of value.matchAll(/"([^"\n]+)"|'([^'\n]+)'/g)) add(q[1] ?? q[2]!);
    }
  }
  // Mocha's `require`: in .mocharc.json/.jsonc/.yml/.yaml, in package.json's `mocha` key, and
  // as the strings of a `require:` entry in .mocharc.js/.cjs.
  const requires: unknown[] = [];
  const pj = byPath.get('package.json');
  if (pj && !pj.truncated && pj.data.length < 1_000_000)
    try {
      const mocha = (JSON.parse(pj.data.toString('utf8')) as { mocha?: { require?: unknown } } | null)?.mocha;
      requires.push(mocha?.require);
    } catch {
      // (A broken manifest names nothing.)
    }
  for (const name of ['.mocharc.json', '.mocharc.jsonc', '.mocharc.yml', '.mocharc.yaml']) {
    const f = byPath.get(name);
    if (!f || f.truncated || f.data.length > 100_000) continue;
    try {
      const text = f.data.toString('utf8').replace(/^[ \t]*\/\/.*$/gm, '');
      requires.push(
        (parseYaml(text, { maxAliasCount: 50, logLevel: 'error' }) as { require?: unknown } | null)?.require,
      );
    } catch {
      continue;
    }
  }
  for (const name of ['.mocharc.js', '.mocharc.cjs']) {
    const f = byPath.get(name);
    if (!f || f.truncated || f.data.length > 100_000) continue;
    const m = /\brequire\s*:\s*(\[[^\]]{0,2000}\]|'[^'\n]*'|"[^"\n]*")/.exec(f.data.toString('utf8'));
    if (m) for (const q of m[1]!.matchAll(/"([^"\n]+)"|'([^'\n]+)'/g)) requires.push(q[1] ?? q[2]);
  }
  for (const req of requires)
    for (const r of Array.isArray(req) ? req : [req]) if (typeof r === 'string') add(r);
  return out.slice(0, 20);
}

export interface ArchiveContext {
  skipped: SkippedFile[];
  limitsHit: string[];
  problems: string[];
  compressedBytes?: number;
  /** Archive limits stopped or thinned the reading (H1): a missing package.json was not reached. */
  incomplete?: boolean;
}

export async function analyzeTarball(
  tgz: Buffer | NodeJS.ReadableStream,
  options?: Partial<AnalysisLimits>,
): Promise<AnalysisResult> {
  const limits = resolveLimits(options);
  const t0 = performance.now();
  const archive = await readTarball(tgz, limits);
  // --- archive limits (H1): an incompletely read archive never looks like "no install scripts" ---
  if (archive.incomplete && !archive.files.some((f) => f.path === 'package.json')) {
    archive.problems.push(
      'The archive limits stopped reading before package.json: its install scripts could not be checked, and npm would still run them.',
    );
  }
  // --- end archive limits ---
  return analyzeFiles(archive.files, limits, archive, t0);
}

/** Names in a package folder's bundleDependencies (all its dependencies when it is `true`). */
async function bundledNames(dir: string): Promise<Set<string>> {
  try {
    const meta = JSON.parse(await readFile(join(dir, 'package.json'), 'utf8')) as Record<string, unknown>;
    const list = meta.bundleDependencies ?? meta.bundledDependencies;
    if (Array.isArray(list)) return new Set(list.filter((x): x is string => typeof x === 'string'));
    if (list === true && meta.dependencies && typeof meta.dependencies === 'object')
      return new Set(Object.keys(meta.dependencies));
  } catch {
    // no package.json, or not JSON: nothing bundled
  }
  return new Set();
}

/** Reads an unpacked package folder without following symbolic links. */
export async function analyzeDirectory(
  dir: string,
  options?: Partial<AnalysisLimits>,
): Promise<AnalysisResult> {
  const limits = resolveLimits(options);
  const t0 = performance.now();
  const files: PackageFile[] = [];
  const ctx: ArchiveContext = { skipped: [], limitsHit: [], problems: [] };
  let total = 0;
  let count = 0;
  // npm packs node_modules/ only for the dependencies listed in bundleDependencies: those are read,
  // the rest of node_modules (a developer's installed tree) is not the package.
  const bundled = await bundledNames(dir);
  const walk = async (rel: string): Promise<void> => {
    if (ctx.limitsHit.includes('max_entries') || ctx.limitsHit.includes('max_unpacked_bytes')) return;
    const names = (await readdir(join(dir, rel))).sort();
    for (const name of names) {
      if (rel === '' && name === '.git') continue;
      if (rel === '' && name === 'node_modules' && !bundled.size) continue;
      const relPath = rel ? `${rel}/${name}` : name;
      if (/^node_modules\/[^/]+$/.test(relPath) && !name.startsWith('@') && !bundled.has(name)) continue;
      if (/^node_modules\/@[^/]+\/[^/]+$/.test(relPath) && !bundled.has(relPath.slice(13))) continue;
      const st = await lstat(join(dir, relPath));
      if (st.isSymbolicLink()) {
        ctx.skipped.push({ path: relPath, reason: 'symlink (links are never followed)' });
        continue;
      }
      if (st.isDirectory()) {
        await walk(relPath);
        continue;
      }
      if (!st.isFile()) continue;
      if (++count > limits.maxEntries) {
        ctx.limitsHit.push('max_entries');
        ctx.problems.push(`The folder has more than ${limits.maxEntries} files; the rest were not read.`);
        return;
      }
      total += st.size;
      if (total > limits.maxUnpackedBytes) {
        ctx.limitsHit.push('max_unpacked_bytes');
        ctx.problems.push(
          `The folder holds more than ${limits.maxUnpackedBytes} bytes; the rest was not read.`,
        );
        return;
      }
      const keep = Math.min(st.size, isTextPath(relPath) ? limits.maxTextFileBytes : limits.headBytes);
      const fh = await open(join(dir, relPath), 'r');
      try {
        const buf = Buffer.alloc(keep);
        const { bytesRead } = await fh.read(buf, 0, keep, 0);
        files.push({
          path: relPath,
          size: st.size,
          data: buf.subarray(0, bytesRead),
          truncated: bytesRead < st.size,
        });
      } finally {
        await fh.close();
      }
    }
  };
  await walk('');
  return analyzeFiles(files, limits, ctx, t0);
}

/** The block comments of a declaration file (`/** … *\/`), with the line each starts on (bounded). */
function blockComments(text: string): { text: string; line: number }[] {
  const out: { text: string; line: number }[] = [];
  let lines: LineIndex | undefined;
  for (let at = text.indexOf('/*'); at >= 0 && out.length < 500;) {
    const end = text.indexOf('*/', at + 2);
    if (end < 0) break;
    out.push({ text: text.slice(at + 2, end), line: (lines ??= new LineIndex(text)).lineOf(at) });
    at = text.indexOf('/*', end + 2);
  }
  return out;
}

/**
 * The package file a script names: a path under a folder variable (`$HERE/x.sh`,
 * `$(dirname "$0")/x.sh`) from the script's folder or the one above it, else from the package's
 * root (where npm runs lifecycle scripts) or the script's folder.
 */
function scriptTarget(from: string, spec: string, exists: (p: string) => boolean): string | undefined {
  const v = /^(?:\$\{[^}]*\}|\$\w+|\$\(.*\))\/(.+)$/.exec(spec);
  const rest = v ? v[1]! : spec.replace(/^\.\//, '');
  const here = posix.dirname(from);
  const candidates = v
    ? [posix.join(here, rest), posix.join(posix.dirname(here), rest), posix.normalize(rest)]
    : [posix.normalize(rest), posix.join(here, rest)];
  return candidates.find((c) => !c.startsWith('../') && exists(c));
}

/** What the package's shipped workflows and workflow templates put secrets in (see envGivenSecrets). */
function secretEnvNames(files: Iterable<PackageFile>): Map<string, 'one' | 'all'> | undefined {
  let out: Map<string, 'one' | 'all'> | undefined;
  for (const f of files) {
    // (Templates a CLI copies into projects may carry a suffix: `ci.yml.tmpl`, `.yaml.ejs`.)
    if (!/\.ya?ml(?:\.\w{1,8})?$/i.test(f.path) || f.truncated || f.size > 1_000_000) continue;
    // (Decoded only when it names secrets at all.)
    if (!f.data.includes('secrets')) continue;
    const text = decodeText(f.data).text;
    const path = f.path.replace(/(\.ya?ml)\.\w+$/i, '$1');
    if (!isCiWorkflow(path, text)) continue;
    for (const [name, what] of envGivenSecrets(text))
      if ((out ??= new Map()).get(name) !== 'all') out.set(name, what);
  }
  return out;
}

/** `spec` as a path inside the package named `name` (`''` for the package itself), if it names it. */
function ownSubpath(spec: string, name: string): string | undefined {
  if (spec === name) return '';
  return spec.startsWith(`${name}/`) ? spec.slice(name.length + 1) : undefined;
}

/**
 * A relative `require`/`import` resolved as Node does: the file, with an extension added, or a
 * folder (`require('..')`, `require('./lib')`) by the `main` of its package.json, else its index.js.
 * `manifest` reads a package.json of the package (a folder's `main` is not followed without it).
 */
function resolveRelative(
  from: string,
  spec: string,
  exists: (p: string) => boolean,
  manifest?: (p: string) => string | undefined,
): string | undefined {
  if (!spec.startsWith('.')) return undefined;
  const joined = posix.normalize(posix.join(posix.dirname(from), spec)).replace(/\/+$/, '');
  // (The package's own folder is '' in its file list.)
  const base = joined === '.' ? '' : joined;
  const dir = base ? `${base}/` : '';
  if (base)
    for (const c of [base, `${base}.js`, `${base}.cjs`, `${base}.mjs`, `${base}.ts`]) if (exists(c)) return c;
  if (manifest && exists(`${dir}package.json`)) {
    try {
      const main = (JSON.parse(manifest(`${dir}package.json`) ?? '{}') as { main?: unknown }).main;
      const target =
        typeof main === 'string' && main.trim() && !/^\.*\/?$/.test(main.trim())
          ? resolveRelative(`${dir}package.json`, `./${main.trim()}`, exists)
          : undefined;
      if (target) return target;
    } catch {
      // a broken manifest: Node falls back to index.js
    }
  }
  return exists(`${dir}index.js`) ? `${dir}index.js` : undefined;
}

/** package.json's `config` field: the string and number values npm sets as `npm_package_config_*`. */
function packageConfig(text: string | undefined): Map<string, string> | undefined {
  if (!text || text.length > 1_000_000) return undefined;
  try {
    const config = (JSON.parse(text) as { config?: unknown }).config;
    if (!config || typeof config !== 'object' || Array.isArray(config)) return undefined;
    const out = new Map<string, string>();
    for (const [k, v] of Object.entries(config).slice(0, 200))
      if (typeof v === 'string' || typeof v === 'number') out.set(k, String(v).slice(0, 1_000_000));
    return out.size ? out : undefined;
  } catch {
    return undefined;
  }
}

/**
 * A package name required from a file of this package, when the package ships it (a bundled
 * dependency under `node_modules/`, found as Node finds it: the nearest `node_modules` up from
 * the requiring file), resolved to the file its `main` (or the subpath) names.
 */
function resolveBundled(
  from: string,
  spec: string,
  exists: (p: string) => boolean,
  manifest: (p: string) => string | undefined,
): string | undefined {
  const m = /^((?:@[\w.-]+\/)?[\w.-]+)(\/.*)?$/.exec(spec);
  if (!m || spec.startsWith('node:')) return undefined;
  let dir = posix.dirname(from);
  for (let i = 0; i < 16; i++) {
    const root = `${dir === '.' ? '' : `${dir}/`}node_modules/${m[1]}`;
    if (exists(`${root}/package.json`)) {
      let main = 'index.js';
      try {
        const pj = JSON.parse(manifest(`${root}/package.json`) ?? '{}') as { main?: unknown };
        if (typeof pj.main === 'string' && pj.main.trim()) main = pj.main.trim();
      } catch {
        // a broken manifest: Node falls back to index.js
      }
      return resolveRelative(`${root}/package.json`, `./${m[2] ? m[2].slice(1) : main}`, exists);
    }
    if (dir === '.' || dir === '') break;
    dir = posix.dirname(dir);
  }
  return undefined;
}

/**
 * A `#name` specifier through the package's `imports` field, as Node resolves it: an exact key or a
 * `#x/*` pattern, its target picked by the conditions Node sets for a `require` from Node (`node`,
 * `require`, then `import` and `default`).
 */
function resolveImports(
  spec: string,
  manifestText: string | undefined,
  exists: (p: string) => boolean,
): string | undefined {
  let imports: unknown;
  try {
    imports = (JSON.parse(manifestText ?? '{}') as { imports?: unknown }).imports;
  } catch {
    return undefined;
  }
  if (!imports || typeof imports !== 'object' || Array.isArray(imports)) return undefined;
  const table = imports as Record<string, unknown>;
  let target: unknown = table[spec];
  let star: string | undefined;
  if (target === undefined)
    for (const [key, value] of Object.entries(table).slice(0, 200)) {
      const at = key.indexOf('*');
      if (at < 0 || !spec.startsWith(key.slice(0, at)) || !spec.endsWith(key.slice(at + 1))) continue;
      target = value;
      star = spec.slice(at, spec.length - (key.length - at - 1));
      break;
    }
  const pick = (v: unknown, depth: number): string | undefined => {
    if (typeof v === 'string') return v;
    if (depth > 4 || !v || typeof v !== 'object') return undefined;
    if (Array.isArray(v)) return v.map((x) => pick(x, depth + 1)).find(Boolean);
    const o = v as Record<string, unknown>;
    for (const c of ['node', 'require', 'import', 'default']) if (c in o) return pick(o[c], depth + 1);
    return undefined;
  };
  const path = pick(target, 0);
  if (!path?.startsWith('./')) return undefined;
  return resolveRelative('package.json', star === undefined ? path : path.replace('*', star), exists);
}

/** Names of plugins build, lint and test tools load (`postcss-x`, `eslint-plugin-x`, `x-loader` …). */
const TOOL_PLUGIN_NAME =
  /^(?:@[^/]+\/)?(?:postcss|eslint-plugin|eslint-config|babel-plugin|babel-preset|vite-plugin|rollup-plugin|prettier-plugin|stylelint|gatsby-plugin|jest-environment|vitest-environment|unplugin|esbuild-plugin|webpack-plugin|storybook-addon|tailwindcss|remark|rehype|markdown-it|karma|parcel-(?:transformer|resolver|namer|packager|optimizer|reporter|validator|runtime)|eleventy-plugin|docusaurus-plugin)-|^@[^/]+\/(?:eslint-plugin|vite-plugin|plugin-|preset-)|-(?:loader|webpack-plugin|vite-plugin|jest-reporter|transformer)$/;
/** Keywords such plugins carry. */
const TOOL_PLUGIN_KEYWORD =
  /^(?:postcss-?plugin|eslint-?plugin|eslintplugin|eslint-?config|eslintconfig|babel-?plugin|vite-?plugin|rollup-?plugin|webpack-?plugin|webpack-?loader|prettier-?plugin|stylelint-?plugin|jest-?environment|jest-?reporter|vitest-?environment|vitest-?reporter|unplugin|esbuild-?plugin|tailwindcss-?plugin|gatsby-?plugin|(?:typescript|ts)-?transformer|storybook-?addon|remark-?plugin|rehype-?plugin|markdown-?it-?plugin|karma-?plugin|parcel-?plugin|eleventy-?plugin|docusaurus-?plugin)$/i;

/** Files a tool loads from a plugin's root besides its entry (Gatsby's node, browser and SSR APIs). */
const TOOL_PLUGIN_FILE = /^gatsby-(?:node|browser|ssr|config)\.[cm]?[jt]sx?$/;

/** A plugin a build, lint or test tool loads, by its name or its keywords. */
function isToolPlugin(meta: PackageMetadata): boolean {
  const keywords = meta.keywords.slice(0, 50).filter((k): k is string => typeof k === 'string');
  return (
    TOOL_PLUGIN_NAME.test(meta.name) ||
    keywords.some((k) => TOOL_PLUGIN_KEYWORD.test(k.trim())) ||
    // (Babel's plugin helper is a dependency only a Babel plugin has.)
    '@babel/helper-plugin-utils' in meta.dependencies ||
    '@babel/helper-plugin-utils' in meta.peerDependencies ||
    // (A test runner's name and `reporter` or `environment` as two keywords: `["jest", "reporter"]`.)
    (keywords.some((k) => /^(?:jest|vitest|mocha|karma|playwright|cypress)$/i.test(k.trim())) &&
      keywords.some((k) => /^(?:reporter|environment|test-?environment)$/i.test(k.trim())))
  );
}

const MCP_HANDLES = [
  /(?:\bcase\s*|===?\s*)['"`]tools\/list['"`]/,
  /(?:\bcase\s*|===?\s*)['"`]tools\/call['"`]/,
];

/** A code file that answers MCP's tool requests itself (a hand-written server's dispatch). */
function answersMcpToolRequests(f: PackageFile): boolean {
  if (!CODE_EXT.test(f.path) || TEST_PATH.test(f.path)) return false;
  // Only the few bytes before each mention are read (bundles that name the methods are large).
  return ['tools/list', 'tools/call'].every((name, n) => {
    for (
      let at = f.data.indexOf(name), seen = 0;
      at >= 0 && seen < 20;
      at = f.data.indexOf(name, at + 1), seen++
    )
      if (
        MCP_HANDLES[n]!.test(f.data.subarray(Math.max(0, at - 16), at + name.length + 1).toString('latin1'))
      )
        return true;
    return false;
  });
}

/** The in-memory core: analyses a list of package files. */
/** What decompressed text is, when its file's name does not say: a script by its first line, or code. */
function sniffedName(text: string): string | undefined {
  const first = text.slice(0, 200);
  if (/^#!.*\b(?:ba|z|da|k)?sh\b/.test(first)) return 'content.sh';
  if (/^#!.*\bnode\b/.test(first)) return 'content.js';
  if (/^#!.*\bpython/.test(first)) return 'content.py';
  return LOOKS_LIKE_JS.test(text.slice(0, 20_000)) ? 'content.js' : undefined;
}

/**
 * Single files a package ships gzip-compressed (`probe.sh.gz`, or any name over gzip data: a
 * `.woff` that is a gzip stream; not archives, `.tgz` / `.tar.gz` or a tar inside): their content,
 * decompressed within limits, analysed as the file they hold under the name `<path>!/<name>` (a
 * script kept compressed so that nothing reads it as one). Without a `.gz` name, the content
 * names itself: a script by its first line, or code.
 */
export function gunzippedMembers(files: PackageFile[], limits: AnalysisLimits): PackageFile[] {
  const out: PackageFile[] = [];
  let budget = Math.min(limits.maxUnpackedBytes, 16 * 1024 * 1024);
  // (At most 40 streams are tried, read or not: a package of gzip bombs costs a fraction of a
  // second, not the scan's time.)
  let tries = 0;
  for (const f of files) {
    if (out.length >= 20 || budget <= 0 || tries >= 40) break;
    if (
      f.truncated ||
      f.data.length < 18 ||
      f.data.length > 2 * 1024 * 1024 ||
      f.data[0] !== 0x1f ||
      f.data[1] !== 0x8b ||
      /\.(?:tar\.gz|tgz)$/i.test(f.path)
    )
      continue;
    tries++;
    const cap = Math.min(budget, 4 * 1024 * 1024);
    let data: Buffer;
    try {
      data = gunzipSync(f.data, { maxOutputLength: cap });
    } catch {
      continue; // corrupt, or larger than the budget: left as the binary file it is
    }
    budget -= data.length;
    if (data.length > 262 && data.toString('latin1', 257, 262) === 'ustar') continue; // an archive
    const gz = /\.gz$/i.test(f.path);
    const dec = gz ? undefined : decodeText(data);
    const name = gz
      ? posix.basename(f.path).slice(0, -3)
      : dec && !dec.binary && dec.validUtf8
        ? sniffedName(dec.text)
        : undefined;
    if (name) out.push({ path: `${f.path}!/${name}`, size: data.length, data, truncated: false });
  }
  return out;
}

/** Code files of the package a path pattern with run-time parts (`lib/platform/${…}.mjs`) names (at most 8). */
function ownFilesMatching(pattern: string, files: PackageFile[]): string[] {
  // (Its written parts must say something: `${…}/${…}` names every file. At most three run-time
  // parts, tried on paths of 300 characters or fewer: more makes the match backtrack for minutes.)
  const parts = pattern.split('${…}').length - 1;
  if (pattern.startsWith('..') || parts > 3 || pattern.replace(/\$\{…\}|\//g, '').length < 3) return [];
  const re = new RegExp(`^${pattern.split('${…}').map(escapeRegExp).join('[^/]+')}(?:\\.[cm]?js)?$`);
  return files
    .filter((f) => f.path.length <= 300 && CODE_FILE.test(f.path) && re.test(f.path))
    .slice(0, 8)
    .map((f) => f.path);
}
const CODE_FILE = /\.[cm]?js$/i;

/** Data files whose text may hide code (configuration, locales, styles, images in text, maps). */
const DATA_TEXT = /\.(?:json|jsonc|ya?ml|toml|ini|csv|txt|md|markdown|css|scss|less|svg|xml|html?|map)$/i;
/**
 * A long base64 run in text (a data: URL's payload, a string value), or a list of quoted base64
 * pieces (`["Y29uc3Qg…", "Z2V0KC…"]`) read as one. A run starts where the previous character is not
 * base64 (without the look-behind, every letter of a long word starts a try that reads to the
 * word's end).
 */
const BASE64_RUN =
  /(?<![A-Za-z0-9+/])[A-Za-z0-9+/]{120,}={0,2}|(?:["'][A-Za-z0-9+/]{16,}={0,2}["']\s*,\s*){2,}["'][A-Za-z0-9+/]{4,}={0,2}["']/g;
/** Decoded text that reads as JavaScript: statements, calls, functions. */
const LOOKS_LIKE_JS =
  /\b(?:require\s*\(|import\s*\(|function\b|=>|const\s+\w|var\s+\w|let\s+\w|process\.|module\.exports|globalThis|window\.|document\.)/;

/**
 * JavaScript kept base64-encoded in the package's data files (a locale's rule, a style's custom
 * property, an image's metadata, a source map): each run that decodes to printable text reading
 * as code is analysed as a file of its own, `<path>!/encoded-<n>.js`. Code that nothing runs says
 * nothing; code a loader decodes and compiles is then read for what it does.
 */
export function encodedMembers(files: PackageFile[]): PackageFile[] {
  const out: PackageFile[] = [];
  // (Decoded bytes are charged whether they read as code or not, and so is the text searched.)
  let budget = 4 * 1024 * 1024;
  let scanned = 0;
  let tries = 0;
  for (const f of files) {
    if (out.length >= 20 || budget <= 0 || tries >= 200 || scanned > 32 * 1024 * 1024) break;
    if (f.truncated || f.data.length < 160 || f.data.length > 4 * 1024 * 1024 || !DATA_TEXT.test(f.path))
      continue;
    scanned += f.data.length;
    const text = f.data.toString('latin1');
    let n = 0;
    for (const m of text.matchAll(BASE64_RUN)) {
      if (n >= 4 || out.length >= 20 || m[0].length > 1024 * 1024 || ++tries > 200 || budget <= 0) break;
      const run = m[0].replace(/["'\s,]/g, '');
      if (run.length < 120) continue;
      const data = Buffer.from(run, 'base64');
      budget -= data.length;
      // Text (fonts, images and compressed data are not), reading as code.
      const dec = decodeText(data);
      if (dec.binary || !dec.validUtf8 || !LOOKS_LIKE_JS.test(dec.text)) continue;
      n++;
      out.push({ path: `${f.path}!/encoded-${n}.js`, size: data.length, data, truncated: false });
    }
  }
  return out;
}

/** Names of Node's modules a patched file's code uses (`http.request`, `http__default['default']`). */
const PATCH_MODULE_NAME =
  /\b(?:https?|net|tls|dns|dgram|fs|os|child_process|zlib|crypto)(?:__default)?\b(?=\s*(?:\.|\[))/g;

/**
 * The JavaScript a package's patch files give other packages (`patches/axios+1.7.2.patch`, applied
 * by `patch-package` or `git apply` when it installs): what each patch adds to a `.js` file (its
 * added lines, in blocks; the context is a fragment that does not parse) read as a file of its
 * own, `<patch>!/<target>`, for what it does; the package rules weigh a patch applied at install.
 */
export function patchedMembers(files: PackageFile[]): PackageFile[] {
  const out: PackageFile[] = [];
  for (const f of files) {
    if (out.length >= 20) break;
    if (f.truncated || f.data.length > 2 * 1024 * 1024 || !/\.(?:patch|diff)$/i.test(f.path)) continue;
    const lines = decodeText(f.data).text.split(/\r?\n/);
    // (Per target file: the blocks the patch adds, and each hunk's lines that the file reads after
    // it, marked `+` or ` `.)
    let target: { path: string; lines: string[]; hunks: string[][] } | undefined;
    let oldLeft = 0;
    let newLeft = 0;
    let added = false;
    const flush = () => {
      let code = target?.lines.join('\n').trim();
      // Added lines that do not parse alone (methods added to a class, a branch added inside a
      // function): each hunk as the patched file reads, its brackets made whole (as code, or as a
      // class body), or else its added lines alone; a hunk that is none of these is left out.
      if (target && code && !bareParse(code, target.path)) {
        const path = target.path;
        const parses = (t: string | undefined) => (t !== undefined && bareParse(t, path) ? t : undefined);
        const joined = target.hunks
          .map((h) => {
            const after = withoutOpenComment(h.map((l) => l.slice(1)).join('\n'));
            return (
              parses(wholeFragment(after, false)) ??
              parses(wholeFragment(after, true)) ??
              parses(
                h
                  .filter((l) => l[0] === '+')
                  .map((l) => l.slice(1))
                  .join('\n'),
              )
            );
          })
          .filter((h) => h?.trim())
          .join(';\n');
        if (joined && bareParse(joined, path)) code = joined;
      }
      if (target && code && out.length < 20) {
        // (The patched file's own imports are not in the patch: names of Node's modules it uses,
        // `http` or a bundler's `http__default`, are bound to them.)
        const prelude = [...new Set(code.match(PATCH_MODULE_NAME) ?? [])]
          .filter(
            (name) => !new RegExp(`\\b(?:const|let|var|import)\\s+(?:\\*\\s+as\\s+)?${name}\\b`).test(code),
          )
          .map((name) => {
            const mod = name.replace(/__default$/, '');
            return name.endsWith('__default')
              ? `const ${name} = { default: require('${mod}') };`
              : `const ${name} = require('${mod}');`;
          });
        const data = Buffer.from([...prelude, code].join('\n'));
        out.push({ path: `${f.path}!/${target.path}`, size: data.length, data, truncated: false });
      }
      target = undefined;
    };
    for (const line of lines) {
      if (oldLeft > 0 || newLeft > 0) {
        const c = line[0];
        if (c === '+') newLeft--;
        else if (c === '-') oldLeft--;
        else if (c === '\\') continue;
        else {
          oldLeft--;
          newLeft--;
        }
        if (target && c !== '-') target.hunks[target.hunks.length - 1]?.push(line);
        // (What the patch adds, in blocks: its context is a fragment of a file that does not parse.)
        if (target && c === '+') {
          if (!added) target.lines.push(';');
          target.lines.push(line.slice(1));
        }
        added = c === '+';
        continue;
      }
      const file = /^\+\+\+ (?:b\/)?([^\t]+)/.exec(line);
      if (file) {
        flush();
        const p = file[1]!.trim().replace(/^node_modules\//, '');
        if (/\.[cm]?js$/i.test(p) && p !== '/dev/null') target = { path: p, lines: [], hunks: [] };
        continue;
      }
      const hunk = /^@@ -\d+(?:,(\d+))? \+\d+(?:,(\d+))? @@/.exec(line);
      if (hunk) {
        oldLeft = Number(hunk[1] ?? 1);
        newLeft = Number(hunk[2] ?? 1);
        added = false;
        if (target && target.hunks.length < 200) target.hunks.push([]);
      }
    }
    flush();
  }
  return out;
}

/** A fragment that starts inside a block comment (a hunk's context in a JSDoc): from its end on. */
function withoutOpenComment(text: string): string {
  const end = text.indexOf('*/');
  const start = text.indexOf('/*');
  return end >= 0 && (start < 0 || start > end)
    ? text.slice(0, end + 2).replace(/[^\n]/g, ' ') + text.slice(end + 2)
    : text;
}

const MAKEFILE = /(?:^|\/)(?:GNUmakefile|[Mm]akefile|[\w.-]+\.mk)$/;
const MAKE_DEFINE = /^(?:export\s+|override\s+)?define\s+([A-Za-z_][\w.-]*)\s*(?:[:?+!]?=)?\s*$/;

/**
 * A Makefile as the shell script `make` runs for the targets asked for (`make -f build/Makefile
 * fetch`; none named: the first target), with their prerequisites: each recipe line (tab-indented
 * or after `target: ;`, `@`/`-` prefixes dropped, continued lines joined) kept on its own line
 * number, other lines blank, with `$(NAME)` and `${NAME}` replaced by the variables it and the
 * files it includes assign (`include config.mk`, each file read once), `$(shell cmd)` as
 * `$(cmd)`, `$(or a,b)` as `a`, and `$$` as `$`. (Variables not assigned stay `$NAME`: the
 * environment's.) A maintainer's `release:` target is not what `make build` runs.
 */
export function makeRecipes(
  text: string,
  path: string,
  read: (p: string) => string | undefined,
  goals: readonly string[] = [],
): string {
  // (make's own defaults for what recipes name: `$(SHELL) x.sh` is `/bin/sh x.sh`.)
  const vars = new Map<string, string>([
    ['SHELL', '/bin/sh'],
    ['MAKE', 'make'],
    ['RM', 'rm -f'],
  ]);
  const included = new Set<string>([path]);
  const assign = (src: string, depth: number) => {
    let defining: { name: string; lines: string[] } | undefined;
    for (const line of src.split(/\r?\n/).slice(0, 5000)) {
      // `define NAME` … `endef`: a variable of several lines (a recipe runs each; joined with `;`).
      if (defining) {
        if (/^\s*endef\b/.test(line)) {
          vars.set(defining.name, defining.lines.join('; '));
          defining = undefined;
        } else if (defining.lines.length < 200) defining.lines.push(line.trim());
        continue;
      }
      const def = MAKE_DEFINE.exec(line);
      if (def) {
        defining = { name: def[1]!, lines: [] };
        continue;
      }
      const inc = /^-?include\s+(.+)$/.exec(line);
      if (inc && depth < 3) {
        for (const name of inc[1]!.trim().split(/\s+/).slice(0, 8)) {
          const at = [posix.normalize(name), posix.join(posix.dirname(path), name)].find(
            (x) => read(x) !== undefined,
          );
          if (at === undefined || included.has(at)) continue;
          included.add(at);
          assign(read(at)!, depth + 1);
        }
        continue;
      }
      const m = /^(?:export\s+|override\s+)?([A-Za-z_][\w.-]*)\s*[:?+!]?=\s*(.*)$/.exec(line);
      if (m && !line.startsWith('\t'))
        vars.set(m[1]!, (m[0].includes('+=') ? `${vars.get(m[1]!) ?? ''} ` : '') + m[2]!.trim());
    }
  };
  assign(text, 0);
  // (Bounded: a variable is expanded once, not inside itself, and a line stops growing at 16 KB.)
  const expanded = new Map<string, string>();
  const calls = new Map<string, string>();
  let callsLeft = 500;
  const expand = (s: string, depth: number, open: ReadonlySet<string>): string =>
    depth > 6 || s.length > 16_384
      ? s
      : makeCalls(s, (name, args) => {
          // (Each call expanded once by its arguments, at most 500 in all, each at most 16 KB:
          // calls of calls cannot multiply.)
          const key = `${name}\u0000${args.join('\u0001')}`;
          let v = calls.get(key);
          if (v === undefined) {
            v =
              vars.has(name) && !open.has(name) && callsLeft-- > 0
                ? expand(
                    vars
                      .get(name)!
                      .replace(
                        /\$(?:\((\d)\)|\{(\d)\}|(\d))/g,
                        (_m, a, b, c) => args[Number(a ?? b ?? c) - 1]?.trim() ?? '',
                      ),
                    depth + 1,
                    new Set([...open, name]),
                  ).slice(0, 16_384)
                : '';
            calls.set(key, v);
          }
          return v;
        })
          .replace(
            /\$\(shell\s+([^()]*(?:\([^()]*\)[^()]*)*)\)/g,
            (_m, cmd: string) => `$(${expand(cmd, depth + 1, open)})`,
          )
          .replace(/\$\(or\s+([^,()]*),[^()]*\)/g, (_m, a: string) => expand(a, depth + 1, open))
          .replace(
            /\$(?:[({]([A-Za-z_][\w.-]*)[)}]|([A-Za-z_]))/g,
            (m, long: string | undefined, short: string | undefined) => {
              const name = (long ?? short)!;
              if (!vars.has(name)) return `$${name}`;
              if (open.has(name)) return m;
              let v = expanded.get(name);
              if (v === undefined) {
                v = expand(vars.get(name)!, depth + 1, new Set([...open, name])).slice(0, 16_384);
                expanded.set(name, v);
              }
              return v;
            },
          );
  // Rules: `target [target…]: prerequisites [; recipe]`, then their tab-indented lines.
  const lines = text.split(/\r?\n/).slice(0, 20_000);
  const rules = new Map<string, { prereqs: string[]; lines: number[] }>();
  let first: string | undefined;
  let current: { prereqs: string[]; lines: number[] }[] = [];
  let inDefine = false;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    // (A `define` block's lines are a variable's value, not rules.)
    if (inDefine || MAKE_DEFINE.test(line)) {
      inDefine = !/^\s*endef\b/.test(line);
      current = [];
      continue;
    }
    if (line.startsWith('\t')) {
      for (const r of current) r.lines.push(i);
      continue;
    }
    const rule = /^([^\s:=#][^:=#]*?)\s*::?(?!=)\s*([^;#]*?)\s*(?:;(.*))?$/.exec(line);
    if (
      !rule ||
      /^(?:export|override|include|-include|define|ifeq|ifneq|ifdef|ifndef|else|endif)\b/.test(line)
    ) {
      if (line.trim() && !line.startsWith('#')) current = [];
      continue;
    }
    const targets = rule[1]!.trim().split(/\s+/);
    current = targets.map((t) => {
      const r = rules.get(t) ?? { prereqs: [], lines: [] };
      rules.set(t, r);
      r.prereqs.push(...rule[2]!.trim().split(/\s+/).filter(Boolean));
      if (rule[3]?.trim()) r.lines.push(-(i + 1)); // an inline recipe: the text after `;`
      return r;
    });
    first ??= targets.find((t) => !t.startsWith('.'));
  }
  const wanted = new Set<number>();
  const visit = (t: string, depth: number) => {
    const r = rules.get(t);
    if (!r || depth > 20) return;
    rules.delete(t);
    for (const l of r.lines) wanted.add(l);
    for (const p of r.prereqs.slice(0, 50)) visit(p, depth + 1);
  };
  for (const g of goals.length ? goals : first ? [first] : []) visit(g, 0);
  const recipe = (raw: string) =>
    expand(raw.replace(/^[@+-]+/, ''), 0, new Set())
      .slice(0, 16_384)
      .replace(/\$\$/g, '$');
  return lines
    .map((line, i) => {
      if (wanted.has(-(i + 1))) return recipe(/;(.*)$/.exec(line)![1]!.trim());
      if (!wanted.has(i)) return '';
      // (A recipe line continued with `\` onto lines that need no tab.)
      let text = line.slice(1);
      for (let j = i + 1; text.endsWith('\\') && j < lines.length && j < i + 50; j++)
        text = `${text.slice(0, -1)} ${lines[j]!.trim()}`;
      return recipe(text);
    })
    .join('\n');
}

/**
 * `$(call NAME,a,b)` (or `${call …}`) in a Makefile line: replaced by what `expandCall(NAME, [a,
 * b])` gives (the arguments split at the commas outside brackets, as make splits them). Bounded:
 * 50 calls a line, 64 KB out.
 */
function makeCalls(line: string, expandCall: (name: string, args: string[]) => string): string {
  let out = '';
  let from = 0;
  const call = /\$([({])call\s/g;
  for (let n = 0; n < 50 && out.length < 65_536; n++) {
    call.lastIndex = from;
    const m = call.exec(line);
    if (!m) break;
    const at = m.index;
    const [open, close] = m[1] === '(' ? ['(', ')'] : ['{', '}'];
    const args: string[] = [];
    let depth = 0;
    let start = at + m[0].length;
    let end = -1;
    for (let i = start; i < line.length; i++) {
      const c = line[i];
      if (c === open) depth++;
      else if (c === close && depth > 0) depth--;
      else if (c === close || (c === ',' && depth === 0)) {
        args.push(line.slice(start, i));
        start = i + 1;
        if (c === close) {
          end = i;
          break;
        }
      }
    }
    if (end < 0) break;
    const [name, ...rest] = args;
    out += line.slice(from, at) + expandCall(name!.trim(), rest);
    from = end + 1;
  }
  return (out + line.slice(from)).slice(0, 65_536);
}

/** The goals of the `make` commands in install scripts that run a given Makefile. */
export function makeGoals(commands: readonly string[], makefile: string): string[] {
  const out: string[] = [];
  for (const cmd of commands)
    for (const { file, goals } of makeCommands(cmd))
      if (!file || posix.basename(file) === posix.basename(makefile)) out.push(...goals);
  return [...new Set(out)];
}

export function analyzeFiles(
  shipped: PackageFile[],
  limits: AnalysisLimits,
  ctx: ArchiveContext = { skipped: [], limitsHit: [], problems: [] },
  t0 = performance.now(),
): AnalysisResult {
  const deadline = t0 + limits.packageTimeBudgetMs;
  const files = shipped.concat(
    gunzippedMembers(shipped, limits),
    encodedMembers(shipped),
    patchedMembers(shipped),
  );
  const byPath = new Map(files.map((f) => [f.path, f]));
  const exists = (p: string) => byPath.has(p);
  /** A package.json shipped in the package (a folder's `main`, a bundled dependency's). */
  const manifest = (p: string) => {
    const f = byPath.get(p);
    return f && !f.truncated && f.size <= 256_000 ? decodeText(f.data).text : undefined;
  };
  const agentPaths = agentFilePaths(files, byPath);
  const skipped = [...ctx.skipped];
  const limitsHit = [...ctx.limitsHit];
  const problems = [...ctx.problems];
  const evidence: Finding[] = [];
  const caps = new CapabilityCollector();
  const installCaps = new CapabilityCollector();
  const stats = {
    files: shipped.length,
    bytes: 0,
    js_files: 0,
    js_bytes: 0,
    parsed_files: 0,
    parse_failures: 0,
    parse_ms: 0,
    analysis_ms: 0,
    total_ms: 0,
  };
  for (const f of shipped) stats.bytes += f.size;

  const pkgFile = byPath.get('package.json');
  const pkgText = pkgFile ? decodeText(pkgFile.data).text : undefined;
  const install = analyzePackageJson(pkgText, 'package.json', exists);
  // What a root binding.gyp has node-gyp run while npm builds it at install (`<!(node gen.js)`):
  // those files run at install time like a lifecycle script's.
  const gyp = byPath.get('binding.gyp');
  if (
    gyp &&
    !gyp.truncated &&
    install.scripts.some((s) => /\bnode-(?:pre-)?gyp(?:-build)?\b|\bprebuild-install\b/.test(s.command))
  ) {
    const dec = decodeText(gyp.data);
    if (!dec.binary)
      for (const c of gypCommands(dec.text.slice(0, 1_000_000)))
        for (const target of scriptTargets(c.command)) {
          const found = [target, `${target}.js`, `${target}.cjs`, `${target}.mjs`].find(exists);
          if (found) install.installFiles.add(found);
        }
  }
  // A root `.npmrc` whose node-options preload a file (`--require ./x.cjs`, `--import`): every node
  // process npm starts in this project, its own install included, loads that file first.
  const npmrc = byPath.get('.npmrc');
  if (npmrc && !npmrc.truncated) {
    const text = decodeText(npmrc.data).text.slice(0, 64_000);
    for (const m of text.matchAll(/^[ \t]*node-options[ \t]*=(.*)$/gm))
      for (const r of m[1]!.matchAll(
        /(?:--require|-r|--import|--loader|--experimental-loader)[=\s]+["']?([^\s"']+)/g,
      )) {
        const target = r[1]!.replace(/^\.\//, '');
        const found = [target, `${target}.js`, `${target}/index.js`].find(exists);
        if (found) install.installFiles.add(found);
      }
  }
  // (H1) when limits stopped reading before package.json, analyzeTarball already says so.
  if (install.parseProblem && !(ctx.incomplete && !pkgFile)) problems.push(`${install.parseProblem}.`);
  evidence.push(...install.findings);
  const meta = install.metadata;
  // Bundled dependencies (shipped under node_modules/ and listed in bundleDependencies) are
  // rebuilt by npm after it unpacks the package: their own lifecycle scripts run at install too.
  const bundled = [
    ...bundledInstalls(meta, files, exists),
    ...workspaceInstalls(meta, install.scripts, files, exists),
  ];
  for (const b of bundled) {
    evidence.push(...b.findings);
    // What runs when this version is installed: the flags say so for bundled hooks too
    // (`prepare` of a bundled package does not run from a registry install).
    for (const k of ['preinstall', 'install', 'postinstall'] as const)
      if (b.flags[k]) install.flags[k] = true;
  }

  // An MCP server package: what its code says can reach the model from any file (see scanText).
  const deps = {
    ...(meta.dependencies as object | undefined),
    ...(meta.peerDependencies as object | undefined),
  };
  // (Or one that answers the protocol's tool requests itself: `case 'tools/list':` and
  // `case 'tools/call':` in its code; a client sends them, an instrumentation looks at one.)
  const mcpPackage =
    Object.keys(deps).some((d) =>
      /^(?:@modelcontextprotocol\/sdk|fastmcp|mcp-framework|@mastra\/mcp|mcp-handler)$/.test(d),
    ) || files.some(answersMcpToolRequests);
  const textScan = (
    path: string,
    text: string,
    context: TextContext,
    installTime: boolean,
    lineOffset = 1,
  ) => {
    evidence.push(...scanText({ path, text, context, installTime, lineOffset, mcpPackage }));
  };

  if (pkgText !== undefined) {
    textScan('package.json', pkgText, 'package_json', false);
  }

  // --- JavaScript, install-time files first (with what they require), then the rest.
  const done = new Set<string>();
  const apiByFile = new Map<string, string[]>();
  let timeUp = false;
  // --- cross-file flow (H4): package-local require/import resolve to the exports of that file ---
  // The names each folder of the package holds (for `fs.readdirSync` of its own folders), on first use.
  let folders: Map<string, Set<string>> | undefined;
  let hooksModules: boolean | undefined;
  const modules: ModuleHost = {
    packageName: install.metadata.name || undefined,
    packageConfig: packageConfig(pkgText),
    secretEnv: secretEnvNames(byPath.values()),
    ciAction: byPath.has('action.yml') || byPath.has('action.yaml'),
    hooksModules: () =>
      (hooksModules ??= [...byPath.values()].some((f) => {
        if (!CODE_EXT.test(f.path) || f.truncated || f.size > 2_000_000) return false;
        const text = decodeText(f.data).text;
        return MODULE_HOOK.test(text) || (MODULE_REGISTER.test(text) && NODE_MODULE.test(text));
      })),
    cache: new Map(),
    deferred: new Map(),
    results: new Map(),
    channels: new Map(),
    resolve: (from, spec) => {
      // (The package by its own name, as a hook it planted in a project loads it:
      // `require('<name>/lib/x')` is its own file.)
      const self = install.metadata.name ? ownSubpath(spec, install.metadata.name) : undefined;
      const target = spec.startsWith('.')
        ? resolveRelative(from, spec, exists, manifest)
        : spec.startsWith('#')
          ? resolveImports(spec, manifest('package.json'), exists)
          : self !== undefined
            ? resolveRelative(
                'package.json',
                `./${self || (typeof install.metadata.main === 'string' ? install.metadata.main : 'index.js')}`,
                exists,
              )
            : resolveBundled(from, spec, exists, manifest);
      const f = target ? byPath.get(target) : undefined;
      if (!f || f.truncated || f.data.length > Math.min(limits.maxAstFileBytes, 1_000_000)) return undefined;
      const dec = decodeText(f.data);
      return dec.binary ? undefined : { path: f.path, text: dec.text };
    },
    list: (from, spec) => {
      if (!spec.startsWith('.')) return undefined;
      const dir = posix.normalize(posix.join(posix.dirname(from), spec)).replace(/\/+$/, '');
      if (dir === '..' || dir.startsWith('../')) return undefined;
      if (!folders) {
        folders = new Map();
        for (const path of byPath.keys()) {
          const parts = path.split('/');
          for (let i = 0; i < parts.length && i < 32; i++) {
            const at = i ? parts.slice(0, i).join('/') : '.';
            let names = folders.get(at);
            if (!names) folders.set(at, (names = new Set()));
            if (names.size < 256) names.add(parts[i]!);
          }
        }
      }
      const names = folders.get(dir);
      return names ? [...names] : undefined;
    },
  };
  // --- end cross-file flow ---
  const fileFacts: FileFacts[] = [];
  // The modules each analysed file requires, as written; resolved to the package's own files only
  // when a package rule asks (see localImports below).
  const requiresOf = new Map<string, string[]>();
  // The entry point `require(pkg)` runs: `main` (with the extensions Node tries), else index.js.
  const mainSpec =
    typeof meta.main === 'string' && meta.main.trim()
      ? posix.normalize(meta.main.trim()).replace(/^\.\//, '')
      : 'index.js';
  const entryFiles = new Set(
    [
      mainSpec,
      `${mainSpec}.js`,
      `${mainSpec}.cjs`,
      `${mainSpec}/index.js`,
      // What `require(pkg)` / `import pkg` resolve to through `exports` (every condition of "."),
      // and the `module` and `browser` entries bundlers load.
      ...rootExportTargets(meta.exports),
      ...[meta.module, meta.browser]
        .filter((x): x is string => typeof x === 'string')
        .map((x) => posix.normalize(x).replace(/^\.\//, '')),
      // A GitHub Action's steps (`runs.main`, `pre`, `post` of a node action): the runner runs
      // them in every workflow that uses the action, with its secrets in the environment.
      ...actionEntries(byPath.get('action.yml') ?? byPath.get('action.yaml')),
      ...configPreloads(byPath),
      // A program named like git or curl runs whenever npm scripts and their tools run that command.
      ...Object.values(shadowingBins(meta)).map((x) => posix.normalize(x).replace(/^\.\//, '')),
    ].map((x) => x.replace(/\/+$/, '')),
  );
  // A plugin of a build, lint or test tool: the tool calls its entry's exports (see callAsHost).
  const toolPlugin = isToolPlugin(meta);
  /**
   * The package's own programs git hooks it planted run, with the command lines they give them:
   * read as code that runs on its own (entry points), on those command lines (see plantHook).
   */
  const hookRuns = new Map<string, (string | undefined)[][]>();
  let hookScripts = 0;
  const plantHook = (body: string, from: string, line: number) => {
    // A hook written in JavaScript (`#!/usr/bin/env node` then `require('<pkg>/lib/x').run()`):
    // read as code that runs on its own, with the package's modules it loads, reported where it
    // is planted.
    if (/^#!.*\bnode\b/.test(body) && hookScripts < 8) {
      hookScripts++;
      const r = analyzeJsFile({
        path: from,
        text: body.replace(/^#![^\n]*/, ''),
        installTime: false,
        entry: true,
        maxDepth: limits.maxAstDepth,
        timeBudgetMs: limits.fileTimeBudgetMs,
        modules,
      });
      for (const f of r.findings)
        if ('threat_type' in f)
          evidence.push({ ...f, file: from, line, message: `${f.message} (code a git hook it plants runs)` });
    }
    for (const run of ownCommandRuns(body, meta.bin, meta.name)) {
      if (!exists(run.file)) continue;
      entryFiles.add(run.file);
      const runs = hookRuns.get(run.file) ?? [];
      if (runs.length < 8) runs.push(run.args);
      hookRuns.set(run.file, runs);
    }
  };
  /** `process.argv` of a program hooks run: each word the hooks give, where they all give one. */
  const hookArgv = (path: string): Val | undefined => {
    const runs = hookRuns.get(path);
    if (!runs) return undefined;
    const items: Val[] = [
      { k: 'str', v: 'node' },
      { k: 'str', v: path },
    ];
    for (let i = 0; i < Math.max(...runs.map((a) => a.length)); i++) {
      const words = [...new Set(runs.map((a) => a[i]))];
      if (words.some((w) => w === undefined) || runs.some((a) => a.length <= i)) {
        items.push({ k: 'unknown' });
        continue;
      }
      let v: Val | undefined;
      for (const w of words.reverse()) v = { k: 'str', v: w!, argv: true, ...(v && { alt: v }) };
      items.push(v!);
    }
    return { k: 'arr', items };
  };
  const analyzeCode = (file: PackageFile, installTime: boolean): string[] => {
    done.add(file.path);
    if (performance.now() > deadline) {
      if (!timeUp) {
        timeUp = true;
        limitsHit.push('package_time_budget');
        problems.push(
          `The package time budget (${limits.packageTimeBudgetMs} ms) ran out; some files were not analysed.`,
        );
      }
      skipped.push({ path: file.path, reason: 'package time budget exhausted' });
      return [];
    }
    const dec = decodeText(file.data);
    stats.js_files++;
    stats.js_bytes += file.data.length;
    if (dec.binary) {
      skipped.push({ path: file.path, reason: 'binary data in a code file: byte-level checks only' });
      problems.push(`${file.path} is named like code but holds binary data.`);
      const kind = magicKind(file.data);
      if (kind) {
        caps.hasNative = true;
        caps.nativeModules.add(file.path);
      }
      return [];
    }
    if (!dec.validUtf8)
      skipped.push({ path: file.path, reason: 'not valid UTF-8: analysed with replacement characters' });
    if (file.truncated || file.data.length > limits.maxAstFileBytes) {
      if (!limitsHit.includes('max_ast_file_bytes')) limitsHit.push('max_ast_file_bytes');
      textScan(file.path, dec.text.slice(0, 2_000_000), 'code', installTime);
      // Too big for one tree: the head, the tail and the statements around sensitive names are
      // cut at top-level statement boundaries and analysed as programs of their own.
      const plan = planChunks(dec.text);
      const requires: string[] = [];
      let parsedChunks = 0;
      for (const ch of plan.chunks) {
        if (performance.now() > deadline) break;
        const r = analyzeJsFile({
          path: file.path,
          text: ch.text,
          installTime,
          maxDepth: limits.maxAstDepth,
          timeBudgetMs: limits.fileTimeBudgetMs,
          modules,
        });
        stats.parse_ms += r.parseMs;
        stats.analysis_ms += r.walkMs;
        if (r.parsed) parsedChunks++;
        for (const f of r.findings) evidence.push({ ...f, line: f.line + ch.lineOffset });
        caps.merge(r.caps);
        if (installTime) installCaps.merge(r.caps);
        requires.push(...r.requires);
      }
      skipped.push({
        path: file.path,
        reason: `larger than ${limits.maxAstFileBytes} bytes: ${parsedChunks} of ${plan.chunks.length} pieces (head, tail and ${(plan.coveredBytes / 1048576).toFixed(1)} MiB around sensitive names) analysed as code, the rest text checks only`,
      });
      return requires;
    }
    const r = analyzeJsFile({
      path: file.path,
      text: dec.text,
      installTime,
      entry: entryFiles.has(file.path) || TOOL_CONFIG.test(file.path),
      hostCalls: toolPlugin && (entryFiles.has(file.path) || TOOL_PLUGIN_FILE.test(file.path)),
      maxDepth: limits.maxAstDepth,
      timeBudgetMs: limits.fileTimeBudgetMs,
      modules, // (H4) cross-file flow
      childArgv: installTime ? undefined : hookArgv(file.path),
    });
    stats.parse_ms += r.parseMs;
    stats.analysis_ms += r.walkMs;
    if (r.parsed) stats.parsed_files++;
    else {
      stats.parse_failures++;
      skipped.push({
        path: file.path,
        reason: `did not parse (${r.parseError ?? 'unknown error'}): text checks only`,
      });
    }
    if (r.parsed && r.repairedLines.length) {
      skipped.push({
        path: file.path,
        reason: `parsed after blanking line(s) ${r.repairedLines.join(', ')} that did not parse: text checks cover them`,
      });
    }
    if (r.timedOut) {
      skipped.push({
        path: file.path,
        reason: `file time budget (${limits.fileTimeBudgetMs} ms) ran out: analysis partial`,
      });
      if (!limitsHit.includes('file_time_budget')) limitsHit.push('file_time_budget');
    }
    evidence.push(...r.findings);
    caps.merge(r.caps);
    if (installTime) installCaps.merge(r.caps);
    // (The modules each file loads, for rules whose pieces sit in modules it reaches.)
    if (r.requires.length && requiresOf.size < 5_000) requiresOf.set(file.path, r.requires.slice(0, 100));
    if (
      r.facts.interactiveShell ||
      r.facts.outboundSocket ||
      r.facts.listeningSocket ||
      r.facts.pipesStreams ||
      r.facts.dropped ||
      r.facts.started ||
      r.facts.fetches ||
      r.facts.wallet
    )
      fileFacts.push({ file: file.path, installTime, ...r.facts });
    // A git hook planted while it installs runs the package's own programs it names later,
    // unprompted, in its user's repository: they are read as code that runs on its own, as the
    // entry point is (not as install steps: git, not npm, runs them).
    if (installTime) for (const pl of r.facts.planted ?? []) plantHook(pl.text, file.path, pl.line);
    if (r.exportNames.length) apiByFile.set(file.path, r.exportNames);
    textScan(file.path, dec.text, 'code', installTime);
    for (const c of r.comments) {
      if (c.text.length >= 20 && PROMPT_PREFILTER.test(c.text))
        textScan(file.path, c.text, 'code_comment', installTime, c.line);
    }
    for (const s of r.strings) {
      // In an MCP server package, text about tools or addressed to the model reaches the model
      // (as for its literals, in scanText): strings the code builds (joined, decoded) too.
      const context: TextContext =
        s.context !== 'string'
          ? s.context
          : mcpPackage && !TEST_PATH.test(file.path) && MODEL_TOPIC.test(s.text)
            ? 'tool_output'
            : 'code_string';
      // (Printed text is assembled at run time: its findings are placed at the call that prints.)
      if (context === 'printed') {
        if (PROMPT_PREFILTER.test(s.text))
          evidence.push(
            ...scanText({ path: file.path, text: s.text, context, installTime, mcpPackage }).map((f) => ({
              ...f,
              line: s.line,
            })),
          );
      } else if (context !== 'code_string' || PROMPT_PREFILTER.test(s.text))
        textScan(file.path, s.text, context, installTime, s.line);
    }
    return r.requires;
  };

  const queue: { path: string; depth: number; dialect?: ScriptDialect }[] = [
    ...install.installFiles,
    ...bundled.flatMap((b) => [...b.installFiles]),
  ].map((p) => ({
    path: p,
    depth: 0,
  }));
  // Scripts the install hooks run: their commands are install-time capabilities.
  const scriptState: ScriptState = { ...newScriptState(), caps: new CapabilityCollector() };
  while (queue.length) {
    const { path, depth, dialect: sourcedAs } = queue.shift()!;
    if (done.has(path)) continue;
    const f = byPath.get(path);
    if (!f) continue;
    const head = f.data.subarray(0, 120).toString('latin1');
    // (A Makefile's recipes are shell lines, with its variables and included files expanded.)
    const makefile = MAKEFILE.test(path);
    const dialect = makefile ? 'sh' : (dialectOf(path, head) ?? sourcedAs);
    if (dialect) {
      done.add(path);
      // (Scripts count against the package's time budget too: a chain of sourced files each
      // costing a little is still bounded.)
      if (performance.now() > deadline) {
        skipped.push({ path, reason: 'package time budget exhausted' });
        if (!limitsHit.includes('package_time_budget')) limitsHit.push('package_time_budget');
        continue;
      }
      const text = makefile
        ? makeRecipes(
            decodeText(f.data).text,
            path,
            (p) => {
              const inc = byPath.get(p);
              return inc && !inc.truncated ? decodeText(inc.data).text : undefined;
            },
            makeGoals(
              install.scripts.map((s) => s.command),
              path,
            ),
          )
        : decodeText(f.data).text;
      evidence.push(...scriptFileFindings(path, text, dialect, scriptState));
      // Git hooks it writes that run the package's own programs: those run unprompted too.
      if (dialect === 'sh') for (const body of hookBodies(text)) plantHook(body, path, 1);
      // Scripts run other scripts (`bash scripts/start.sh`, `call setup.cmd`) and read files in
      // as part of themselves (`. "$HERE/lib/env.sh"`, shell whatever the name): follow them.
      if (depth < 3 && dialect !== 'python') {
        for (const spec of scriptTargets(text)) {
          const target = scriptTarget(path, spec, exists);
          if (target && !done.has(target)) queue.push({ path: target, depth: depth + 1 });
        }
        if (dialect === 'sh')
          for (const spec of sourcedFiles(text)) {
            const target = scriptTarget(path, spec, exists);
            if (target && !done.has(target)) queue.push({ path: target, depth: depth + 1, dialect });
          }
      }
      continue;
    }
    // An install step that does nothing unless its user set the package's own variable
    // (`if (process.env.SCHEMADOC_REGISTER_MCP !== '1') process.exit(0)`) is one they ask for: read
    // like code they call.
    const optedIn = optInGate(decodeText(f.data).text, meta.name);
    const reqs = analyzeCode(f, !optedIn);
    // Shipped scripts this install step starts (`execFile('powershell', ['-File',
    // join(__dirname, 'register.ps1')])`, `spawn('sh', [here + '/setup.sh'])`): install steps too.
    if (depth < 3 && !optedIn)
      for (const st of fileFacts.find((ff) => ff.file === path)?.started ?? [])
        for (const v of st.values) {
          const name = v.split(/[\\/]/).pop() ?? '';
          // (A script by its name, or by its `#!` line whatever its name: a "prebuilt binary"
          // `keyring.node` that is a shell script. A path picked at run time may name a few.)
          const named = /\.(?:sh|bash|ps1|cmd|bat|py)$/i.test(name);
          const targets = files.filter(
            (x) =>
              (x.path === name || x.path.endsWith(`/${name}`)) &&
              (v === x.path || v.endsWith(`/${x.path}`) || v.includes('${')) &&
              (named || dialectOf(x.path, x.data.subarray(0, 120).toString('latin1')) !== undefined),
          );
          for (const t of targets.slice(0, 4))
            if (!done.has(t.path)) queue.push({ path: t.path, depth: depth + 1 });
        }
    if (depth < 3 && !optedIn) {
      for (const spec of reqs) {
        // A file of its own folder picked at run time (`./platform/${…}.mjs`): every file of the
        // package the pattern names (a few) may be the one loaded.
        const targets = spec.includes('${…}')
          ? ownFilesMatching(posix.join(posix.dirname(path), spec), files)
          : [resolveRelative(path, spec, exists, manifest)];
        // (`require('./config.json')` loads data: the file is not code to run.)
        for (const target of targets)
          if (target && !done.has(target) && !/\.json$/i.test(target))
            queue.push({ path: target, depth: depth + 1 });
      }
    }
  }
  // What the install scripts run, with the package scripts they run by name (`npm run
  // build:native`, `yarn build`, three deep): a build started that way runs at install too.
  const buildCommands = (() => {
    const named = install.metadata.scripts ?? {};
    const out = install.scripts.map((sc) => sc.command);
    for (let i = 0; i < out.length && out.length < 20; i++)
      for (const m of out[i]!.matchAll(/\b(?:npm|pnpm|yarn|bun)\s+(?:run(?:-script)?\s+)?([\w:.-]+)/g)) {
        const cmd = Object.hasOwn(named, m[1]!) ? named[m[1]!] : undefined;
        if (typeof cmd === 'string' && !out.includes(cmd) && i < 8) out.push(cmd.slice(0, 2000));
      }
    return out;
  })();
  // An install script that builds with CMake (`cmake-js compile`, `cmake -S . -B build`): the
  // root CMakeLists.txt and the modules it includes run while npm installs, their commands read as
  // the shell lines they amount to (downloads, `execute_process`, custom commands).
  const cmakeLists = byPath.get('CMakeLists.txt');
  if (
    cmakeLists &&
    !cmakeLists.truncated &&
    buildCommands.some((c) => /\bcmake-js\b|\bcmake\s+(?:-S|-B|\.|--build)/.test(c))
  ) {
    const read = (p: string) => {
      const f = byPath.get(p);
      return f && !f.truncated && f.size <= 1_000_000 ? decodeText(f.data).text : undefined;
    };
    const lines = cmakeAsShell(decodeText(cmakeLists.data).text, 'CMakeLists.txt', read);
    // (Its own state, whose capabilities are not the install's: a build's `node -p` and a pinned
    // source download are what every cmake-js addon does; the threat rules still read them.)
    const cmakeState = newScriptState();
    const byFile = new Map<string, string[]>();
    for (const l of lines) {
      const at = byFile.get(l.file) ?? [];
      at[l.line - 1] = at[l.line - 1] ? `${at[l.line - 1]}; ${l.text}` : l.text;
      byFile.set(l.file, at);
    }
    for (const [file, at] of byFile)
      evidence.push(
        ...scriptFileFindings(file, Array.from(at, (l) => l ?? '').join('\n'), 'sh', cmakeState).map((f) => ({
          ...f,
          message: f.message.replace(
            /^install-time shell script /,
            'a command CMake runs while npm installs the package ',
          ),
        })),
      );
  }
  // A Rust build script cargo runs while npm installs the package: an install script that runs
  // `cargo build` or `napi build`, or install-time code that starts cargo.
  const buildRs = byPath.get('build.rs');
  if (
    buildRs &&
    !buildRs.truncated &&
    byPath.has('Cargo.toml') &&
    (buildCommands.some((c) =>
      /\bcargo(?:\s+\+\S+)?\s+(?:build|install|run|rustc)\b|\bnapi\s+build\b|\bcargo-cp-artifact\b/.test(c),
    ) ||
      fileFacts.some(
        (ff) =>
          ff.installTime &&
          ff.started?.some((st) => st.values.some((v) => /(?:^|[\\/])(?:cargo|napi)(?:\.exe)?$/i.test(v))),
      ))
  ) {
    for (const hit of rustBuildHits(decodeText(buildRs.data).text, true))
      evidence.push(
        finding({
          threat_type: hit.threat_type,
          rule: hit.rule,
          message: `Rust build script cargo runs while npm installs the package ${hit.message}`,
          file: 'build.rs',
          line: hit.line,
          snippet: snippetOf(hit.text),
          install_time: true,
          variant: hit.variant,
          steps: hit.steps,
        }),
      );
  }
  caps.merge(scriptState.caps!);
  installCaps.merge(scriptState.caps!);
  /**
   * Code that is not a file of its own (`node -e` in a script, a workflow step's JavaScript): its
   * findings placed on the line that holds it, the place named in the message.
   */
  const analyzeInline = (path: string, code: string, line: number, installTime: boolean, where: string) => {
    const r = analyzeJsFile({
      path,
      text: code,
      installTime,
      maxDepth: limits.maxAstDepth,
      timeBudgetMs: limits.fileTimeBudgetMs,
    });
    return {
      findings: r.findings.map((f) => ({ ...f, line, message: `${f.message} (${where})` })),
      caps: r.caps,
    };
  };
  for (const inline of [
    ...install.inlineCode.map((i) => ({ ...i, file: 'package.json' })),
    ...bundled.flatMap((b) => b.inlineCode.map((i) => ({ ...i, file: b.path }))),
  ]) {
    const r = analyzeInline(inline.file, inline.code, inline.line, true, `inline code of ${inline.label}`);
    evidence.push(...r.findings);
    caps.merge(r.caps);
    installCaps.merge(r.caps);
  }

  const addNative = (path: string, rule: RuleId, message: string) => {
    caps.hasNative = true;
    caps.nativeModules.add(path);
    evidence.push(
      finding({
        capability: 'native',
        rule,
        message,
        file: path,
        line: 1,
        snippet: path,
        install_time: false,
      }),
    );
  };
  const binNames = new Set(Object.values(meta.bin).map((p) => posix.normalize(p)));
  /** Folders holding a GitHub Action's metadata (`action.yml`): their scripts run in CI. */
  const actionFiles = files.filter((f) => /(?:^|\/)action\.ya?ml$/i.test(f.path));
  const actionDirs = new Set(actionFiles.map((f) => f.path.slice(0, f.path.lastIndexOf('/') + 1)));
  /** Scripts an action passes a secret to as an argument (their $1 … are secrets). */
  const givenSecrets = new Set<string>();
  for (const f of actionFiles)
    for (const n of scriptsGivenSecrets(decodeText(f.data).text)) givenSecrets.add(n);
  const inActionDir = (p: string) => [...actionDirs].some((d) => p.startsWith(d));
  for (const file of [...files].sort((a, b) => a.path.localeCompare(b.path))) {
    const p = file.path;
    if (done.has(p)) continue;
    const base = p.slice(p.lastIndexOf('/') + 1);
    if (/\.node$/i.test(p) || base === 'binding.gyp') {
      addNative(p, 'file.native', `ships native code (${p})`);
      // node-gyp runs a binding.gyp's command expansions (`<!(…)`) and actions while it builds,
      // which npm does at install for a root binding.gyp (the implicit `node-gyp rebuild`) or an
      // install script that calls node-gyp.
      if (base === 'binding.gyp') {
        const dec = decodeText(file.data);
        const builds =
          p === 'binding.gyp' &&
          install.scripts.some((s) =>
            /\bnode-(?:pre-)?gyp(?:-build)?\b|\bprebuild-install\b/.test(s.command),
          );
        const cmds = dec.binary ? [] : gypCommands(dec.text.slice(0, 1_000_000));
        if (cmds.length) {
          const lines: string[] = [];
          for (const c of cmds)
            lines[c.line - 1] = lines[c.line - 1] ? `${lines[c.line - 1]}; ${c.command}` : c.command;
          const text = Array.from(lines, (l) => l ?? '').join('\n');
          evidence.push(
            ...scriptFileFindings(p, text, 'sh', newScriptState(), builds).map((f) => ({
              ...f,
              message: f.message.replace(
                /^(install-time|shipped) shell script /,
                'a command node-gyp runs while building ',
              ),
            })),
          );
          for (const c of cmds)
            for (const code of inlineNodeCode(c.command)) {
              const r = analyzeInline(p, code, c.line, builds, 'inline code node-gyp runs while building');
              evidence.push(...r.findings);
              caps.merge(r.caps);
              if (builds) installCaps.merge(r.caps);
            }
        }
      }
      continue;
    }
    const magic = magicKind(file.data);
    if (magic) {
      addNative(p, 'file.executable', `bundles a ${magic} (${p})`);
      continue;
    }
    if (DTS.test(p)) {
      const dec = decodeText(file.data);
      if (!dec.binary) {
        const names = declarationExports(dec.text);
        if (names.length) apiByFile.set(p, names);
        const text = dec.text.slice(0, 2_000_000);
        textScan(p, text, 'code', false);
        // Its doc comments are what editors and IDE agents show for the API. API documentation
        // names AI products all the time (an SDK's agents, Copilot endpoints): only a comment that
        // addresses an AI reader itself ("note for code assistants") is read as instructions.
        for (const c of blockComments(text))
          if (c.text.length >= 20 && SECTION_FOR_AI.test(c.text))
            textScan(p, c.text, 'code_comment', false, c.line);
      }
      continue;
    }
    const firstLine = file.data.subarray(0, 120).toString('latin1').split('\n')[0] ?? '';
    const nodeShebang = /^#!.*\bnode\b/.test(firstLine);
    const otherShebang = firstLine.startsWith('#!') && !nodeShebang;
    const isCode = CODE_EXT.test(p) || (binNames.has(p) && !/\.\w+$/.test(base) && !otherShebang);
    if (isCode) {
      analyzeCode(file, false);
      continue;
    }
    // A stylesheet that loads a remote image per character of a secret field's value: what the
    // page's user types leaks with no script at all (the same test as for stylesheets built in code).
    if (/\.(?:css|scss|sass|less|styl|html?)$/i.test(p) && !file.truncated) {
      const css = decodeText(file.data.subarray(0, 2_000_000));
      const leak = css.binary ? undefined : cssValueLeak(css.text);
      if (leak) {
        const line = css.text.slice(0, leak.index).split('\n').length;
        evidence.push(
          finding({
            threat_type: 'data_exfiltration',
            rule: 'text.css-value-leak',
            message: leak.message,
            file: p,
            line,
            snippet: snippetOf(css.text.split('\n')[line - 1]?.slice(0, 300) ?? ''),
            install_time: false,
          }),
        );
      }
    }
    if (!isTextPath(p) || p === 'package.json') continue;
    const dec = decodeText(file.data);
    if (dec.binary) continue;
    if (nodeShebang) {
      analyzeCode(file, false);
      continue;
    }
    // Scripts no lifecycle hook runs: what they would do when a user, a tool or CI runs them
    // (run-time weights). Next to an action.yml, GitHub runs them with the job's secrets.
    const shipped = dialectOf(p, file.data.subarray(0, 120).toString('latin1'));
    if (shipped) {
      evidence.push(...scriptFileFindings(p, dec.text, shipped, newScriptState(), false));
      if (inActionDir(p))
        for (const hit of analyzeCiScript(dec.text, givenSecrets.has(base)))
          evidence.push(
            finding({
              threat_type: hit.threat_type,
              rule: hit.rule,
              message: hit.message,
              file: p,
              line: hit.line,
              snippet: snippetOf(hit.text),
              install_time: false,
              variant: hit.variant,
            }),
          );
    }
    // A miner's configuration shipped as data (pools with user/wallet, donate level).
    const miner = /\.(?:json|jsonc|conf|cfg|ini|toml|ya?ml)$/i.test(p)
      ? minerConfig(dec.text.slice(0, 200_000))
      : undefined;
    if (miner !== undefined) {
      evidence.push(
        finding({
          threat_type: 'malicious_code',
          rule: 'file.miner-config',
          message: `ships a cryptocurrency miner configuration (${p})`,
          file: p,
          line: 1,
          snippet: snippetOf(miner),
          install_time: false,
        }),
      );
    }
    if (isCiWorkflow(p, dec.text) || isEditorTasks(p)) {
      // A folder-open task runs unasked, like an install script; a workflow runs in CI.
      const editor = isEditorTasks(p);
      const wf = editor ? analyzeEditorTasksFile(dec.text) : analyzeWorkflowFile(dec.text, p);
      // JavaScript the steps run is read by the JavaScript engine (its threats only: what a CI job
      // can do is not what the package can do where it is installed). A step it finds sending
      // data out is not reported a second time by the workflow's own text rules.
      const codeLines = new Set<number>();
      const where = editor
        ? 'code run by a task when the folder is opened'
        : 'code run by a step of this CI workflow';
      for (const c of wf.code) {
        for (const f of analyzeInline(p, c.code, c.line, editor, where).findings) {
          if (!('threat_type' in f)) continue;
          evidence.push(f);
          if (f.confidence >= 0.5 && (editor || f.threat_type === 'data_exfiltration')) codeLines.add(c.line);
        }
      }
      for (const hit of wf.hits) {
        if (
          (hit.rule === 'workflow.secrets-exfil' || hit.rule === 'editor.autorun-task') &&
          codeLines.has(hit.line)
        )
          continue;
        evidence.push(
          finding({
            threat_type: hit.threat_type,
            rule: hit.rule,
            message: hit.message,
            file: p,
            line: hit.line,
            snippet: snippetOf(hit.text),
            install_time: false,
            variant: hit.variant,
          }),
        );
      }
    }
    const context: TextContext =
      isAgentFile(p) || agentPaths.has(p)
        ? 'agent_file'
        : MARKDOWN.test(p) || /^readme/i.test(base)
          ? 'markdown'
          : 'code';
    if (context === 'code' && !/\.(?:sh|bash|ps1|bat|cmd|py|ya?ml|json|html?)$/i.test(p)) {
      // other text files: only the hidden-Unicode scan
    }
    textScan(p, dec.text.slice(0, 5_000_000), context, install.installFiles.has(p));
  }

  packageRules(evidence, {
    files,
    byPath,
    fileFacts,
    localImports: (file: string) =>
      (requiresOf.get(file) ?? [])
        .map((spec) => resolveRelative(file, spec, exists, manifest))
        .filter((x): x is string => !!x),
    scripts: install.scripts,
    allScripts: install.metadata.scripts,
  });
  if (install.scripts.length) {
    for (const cmd of install.scripts.map((s) => s.command)) {
      if (/^node-gyp rebuild/.test(cmd)) {
        caps.hasNative = true;
      }
    }
  }

  evidence.push(
    ...packageSignals(meta, {
      hasReadme: files.some((f) => /^readme(?:\.\w+)?$/i.test(f.path) && f.size > 200),
      scripts: install.scripts,
    }),
  );

  // (H4) Calls into another package file report at the callee's line; that file's own analysis
  // may report the same finding: keep one per rule and place.
  {
    const best = new Map<string, Finding>();
    for (const f of evidence) {
      const k = `${f.rule}|${f.file}|${f.line}|${'threat_type' in f ? f.threat_type : f.capability}`;
      const o = best.get(k);
      if (!o || f.confidence > o.confidence || (f.install_time && !o.install_time)) best.set(k, f);
    }
    if (best.size < evidence.length) {
      const keep = new Set(best.values());
      const kept = evidence.filter((f) => keep.has(f));
      evidence.length = 0;
      evidence.push(...kept);
    }
  }
  // Bound the evidence, strongest first.
  evidence.sort(
    (a, b) =>
      b.confidence - a.confidence ||
      a.file.localeCompare(b.file) ||
      a.line - b.line ||
      a.rule.localeCompare(b.rule),
  );
  if (evidence.length > limits.maxFindings) {
    evidence.length = limits.maxFindings;
    limitsHit.push('max_findings');
  }

  const threatFindings = evidence.filter(
    (f): f is Finding & { threat_type: AgenticThreat['threat_type'] } => 'threat_type' in f,
  );
  const agentic: AgenticThreat[] = [];
  const perRuleFile = new Map<string, number>();
  const seenLoc = new Set<string>();
  for (const f of threatFindings) {
    if (f.confidence < REPORT_MIN_CONFIDENCE) continue;
    const k = `${f.rule}:${f.file}`;
    const n = perRuleFile.get(k) ?? 0;
    const loc = `${f.threat_type}:${f.file}:${f.line}`;
    if (n >= MAX_PER_RULE_FILE || seenLoc.has(loc) || agentic.length >= MAX_THREATS) continue;
    perRuleFile.set(k, n + 1);
    seenLoc.add(loc);
    agentic.push({
      threat_type: f.threat_type,
      confidence: f.confidence,
      location: `${f.file}:${f.line}`,
      snippet: f.snippet,
    });
  }

  const capabilities = caps.toSchema();
  const ic = installCaps.toSchema();
  const riskInput: RiskInput = {
    threats: threatFindings.map((f) => ({
      threat_type: f.threat_type,
      confidence: f.confidence,
      file: f.file,
      line: f.line,
      message: f.message,
      install_time: f.install_time,
    })),
    install_scripts: [
      ...install.scripts.map((s) => ({ name: s.name, command: s.command })),
      ...bundled.flatMap((b) => b.scripts.map((s) => ({ name: `${b.path}#${s.name}`, command: s.command }))),
    ],
    install_time_capabilities: {
      makes_requests: ic.network.makes_requests,
      spawns_children: ic.process.spawns_children,
      domains: ic.network.domains,
      commands: ic.process.commands,
    },
    has_native: capabilities.native.has_native,
    analysis_problems: problems,
    analysis_notes: analysisNotes(skipped, limitsHit, limits),
  };
  const risk = assessRisk(riskInput);

  const readme = files.find((f) => /^readme(?:\.(?:md|markdown|txt))?$/i.test(f.path));
  const typesEntry = meta.types ? posix.normalize(meta.types) : undefined;
  const apiFiles = [...apiByFile.entries()]
    .map(([file, names]) => ({ file, names }))
    .sort(
      (a, b) =>
        rankApiFile(a.file, typesEntry, meta.main) - rankApiFile(b.file, typesEntry, meta.main) ||
        a.file.localeCompare(b.file),
    );
  const docs_md = buildDocs({
    metadata: meta,
    install_scripts: install.flags,
    scripts: install.scripts,
    capabilities,
    threats: agentic,
    risk_level: risk.risk_level,
    api: apiFiles.slice(0, 3),
    readme: readme ? decodeText(readme.data).text : undefined,
    isEsmOnly: meta.type === 'module' && !meta.main,
  });
  stats.total_ms = Math.round(performance.now() - t0);
  stats.parse_ms = Math.round(stats.parse_ms);
  stats.analysis_ms = Math.round(stats.analysis_ms);

  return {
    name: meta.name,
    version: meta.version,
    metadata: meta,
    install_scripts: install.flags,
    capabilities,
    agentic_threats: agentic,
    risk_level: risk.risk_level,
    risk_reasons: risk.risk_reasons,
    risk_input: riskInput,
    docs_md,
    evidence,
    skipped_files: skipped,
    limits_hit: [...new Set(limitsHit)],
    stats,
  };
}

/** Informational risk reasons for per-file limits, naming the files (at most 3 each). */
function analysisNotes(skipped: SkippedFile[], limitsHit: string[], limits: AnalysisLimits): string[] {
  const notes: string[] = [];
  const files = (re: RegExp) => {
    const list = skipped.filter((s) => re.test(s.reason)).map((s) => s.path);
    return list.length
      ? `${list.slice(0, 3).join(', ')}${list.length > 3 ? ` and ${list.length - 3} more` : ''}`
      : '';
  };
  const big = files(/no syntax tree|only the first/);
  if (big)
    notes.push(
      `Files larger than the analysis limits (${big}) were checked as text only; review them by hand if they matter to you.`,
    );
  const slow = files(/file time budget/);
  if (slow)
    notes.push(
      `The ${limits.fileTimeBudgetMs} ms per-file budget ran out for ${slow}; their analysis is partial.`,
    );
  const utf = files(/not valid UTF-8/);
  if (utf)
    notes.push(
      `${utf} ${utf.includes(',') ? 'are' : 'is'} not valid UTF-8 and ${utf.includes(',') ? 'were' : 'was'} analysed with replacement characters.`,
    );
  const unparsed = files(/did not parse/);
  if (unparsed) notes.push(`${unparsed} did not parse as JavaScript and received text-level checks only.`);
  if (limitsHit.includes('max_findings'))
    notes.push(`More than ${limits.maxFindings} findings: only the strongest are kept in the evidence.`);
  return notes;
}

/** The files an `exports` map gives for the package root ("."), under every condition (at most 20). */
function rootExportTargets(exportsField: unknown): string[] {
  const out: string[] = [];
  const leaves = (v: unknown, depth: number) => {
    if (out.length >= 20 || depth > 6) return;
    if (typeof v === 'string') {
      if (v.startsWith('./')) out.push(posix.normalize(v).replace(/^\.\//, ''));
    } else if (Array.isArray(v)) for (const x of v) leaves(x, depth + 1);
    else if (v && typeof v === 'object')
      for (const [k, x] of Object.entries(v as Record<string, unknown>))
        if (!k.startsWith('./') || k === '.') leaves(x, depth + 1);
  };
  if (typeof exportsField === 'string' || Array.isArray(exportsField)) leaves(exportsField, 0);
  else if (exportsField && typeof exportsField === 'object') {
    const o = exportsField as Record<string, unknown>;
    leaves('.' in o ? o['.'] : Object.keys(o).some((k) => k.startsWith('.')) ? undefined : o, 0);
  }
  return out;
}

/**
 * The install analyses of bundled dependencies: `node_modules/<name>/package.json` files (nested
 * bundles too, at most 50) of packages the manifest bundles (`bundleDependencies` or
 * `bundledDependencies`: a list, or `true` for all dependencies). Their files are named from the
 * package root, so what their scripts run is found and read as install-time code.
 */
function bundledInstalls(
  meta: PackageMetadata,
  files: PackageFile[],
  exists: (p: string) => boolean,
): (InstallAnalysis & { path: string })[] {
  const names = new Set(meta.bundled ?? []);
  if (!names.size) return [];
  const out: (InstallAnalysis & { path: string })[] = [];
  for (const f of files) {
    if (out.length >= 50) break;
    const m = /^((?:node_modules\/(?:@[^/]+\/)?[^/]+\/)+)package\.json$/.exec(f.path);
    if (!m) continue;
    const top = /^node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(m[1]!)?.[1];
    if (!top || !names.has(top)) continue;
    const a = nestedInstall(f, m[1]!, ['preinstall', 'install', 'postinstall'], exists);
    if (a) out.push(a);
  }
  return out;
}

/**
 * The install analysis of a package.json inside the package (a bundled dependency, a workspace)
 * for the scripts named: what they run, named from the package root. Undefined when it has none.
 */
function nestedInstall(
  f: PackageFile,
  dir: string,
  hooks: string[],
  exists: (p: string) => boolean,
): (InstallAnalysis & { path: string }) | undefined {
  const a = analyzePackageJson(
    decodeText(f.data).text,
    f.path,
    (p) => exists(posix.normalize(dir + p)),
    hooks,
  );
  if (!a.scripts.length) return undefined;
  const installFiles = new Set([...a.installFiles].map((p) => posix.normalize(dir + p)));
  return { ...a, path: f.path, installFiles };
}

/**
 * Scripts of workspace packages that the root's install hooks run (`"postinstall": "npm run
 * postinstall --workspaces"`): each workspace's script of that name runs at install too, and the
 * files it runs are install-time code (named from the package root, as for bundled packages).
 */
function workspaceInstalls(
  meta: PackageMetadata,
  hooks: { name: string; command: string }[],
  files: PackageFile[],
  exists: (p: string) => boolean,
): (InstallAnalysis & { path: string })[] {
  if (!meta.workspaces?.length) return [];
  const names = new Set<string>();
  for (const h of hooks)
    if (/^(?:preinstall|install|postinstall)$/.test(h.name))
      for (const [, cmd] of runChain(h.command, meta.scripts)) {
        const name = workspaceScript(cmd);
        if (name) names.add(name);
      }
  if (!names.size) return [];
  // (`**` any folders, `*` one folder name.)
  const globs = meta.workspaces.map(
    (g) =>
      new RegExp(
        `^${g
          .replace(/^\.\//, '')
          .replace(/\/+$/, '')
          .split('**')
          .map((part) => part.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '[^/]+'))
          .join('.+')}/package\\.json$`,
      ),
  );
  const out: (InstallAnalysis & { path: string })[] = [];
  for (const f of files) {
    if (out.length >= 50) break;
    if (f.path.startsWith('node_modules/') || !globs.some((g) => g.test(f.path))) continue;
    const a = nestedInstall(f, f.path.slice(0, -'package.json'.length), [...names], exists);
    if (a) out.push(a);
  }
  return out;
}

/**
 * The commands a binding.gyp has node-gyp run: command expansions (`<!(cmd)`, `<!@(cmd)`) and the
 * argument arrays of `actions`, with their lines. The file is a Python literal (comments, single
 * quotes), read leniently.
 */
export function gypCommands(text: string): { command: string; line: number }[] {
  const out: { command: string; line: number }[] = [];
  const lines = new LineIndex(text);
  // `<!(cmd)` / `<!@(cmd)`: the command ends at the `)` that closes the string it sits in (looked
  // for within 2,000 characters, so hostile files stay linear).
  for (let at = text.indexOf('<!'); at !== -1 && out.length < 50; at = text.indexOf('<!', at + 2)) {
    const open = text[at + 2] === '@' ? at + 3 : at + 2;
    if (text[open] !== '(') continue;
    const window = text.slice(open + 1, open + 2001);
    const close = /\)\s*["']/.exec(window);
    if (!close) continue;
    out.push({ command: window.slice(0, close.index).replace(/\\(["'\\])/g, '$1'), line: lines.lineOf(at) });
  }
  for (const m of text.matchAll(/["']action["']\s*:\s*\[([^\]]{0,4000})\]/g)) {
    if (out.length >= 50) break;
    const words = [...m[1]!.matchAll(/"((?:[^"\\]|\\.)*)"|'((?:[^'\\]|\\.)*)'/g)].map((w) =>
      (w[1] ?? w[2] ?? '').replace(/\\(["'\\])/g, '$1'),
    );
    if (!words.length) continue;
    const quoted = words.map((w) => (/[\s|;&<>()$`]/.test(w) ? `"${w.replace(/(["\\$`])/g, '\\$1')}"` : w));
    out.push({ command: quoted.join(' '), line: lines.lineOf(m.index) });
  }
  return out;
}

/** Scripts run by lifecycle scripts (shell, batch, PowerShell, Python): their behaviour, as install-time code. */
function scriptFileFindings(
  path: string,
  text: string,
  dialect: ScriptDialect,
  state: ScriptState,
  installTime = true,
): Finding[] {
  const kind =
    dialect === 'python'
      ? 'Python'
      : dialect === 'sh'
        ? 'shell'
        : dialect === 'batch'
          ? 'batch'
          : 'PowerShell';
  return analyzeScript(text, dialect, installTime, state).map((hit) =>
    finding({
      // Not run by npm: what it does is malicious code, not an install-script injection.
      threat_type:
        !installTime && hit.threat_type === 'install_script_injection' ? 'malicious_code' : hit.threat_type,
      rule: hit.rule,
      message: `${installTime ? 'install-time' : 'shipped'} ${kind} script ${hit.message}`,
      file: path,
      line: hit.line,
      snippet: snippetOf(hit.text),
      install_time: installTime,
      variant: hit.variant,
      steps: hit.steps,
    }),
  );
}

function rankApiFile(file: string, types: string | undefined, main: string | undefined): number {
  if (types && file === types) return 0;
  if (/^(?:index|lib\/index|dist\/index)\.d\.[cm]?ts$/.test(file)) return 1;
  if (main && posix.normalize(main).replace(/\.js$/, '') === file.replace(/\.[cm]?js$/, '')) return 2;
  if (DTS.test(file)) return 3;
  return 4;
}
