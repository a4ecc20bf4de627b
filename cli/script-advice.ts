/**
 * Whether a package's install scripts need to run, judged from what the scan saw them do. npm 12
 * (and npm 11 with `allowScripts`) skips dependency install scripts unless the project allows
 * them, pnpm does the same with `onlyBuiltDependencies`: this says which ones to allow and why.
 *
 * - `deny`: the scan rated the package critical or found install-time threats; never allow.
 * - `allow`: the scripts build a native addon (node-gyp, prebuild-install, cmake-js …) or the
 *   package ships native code the scripts set up, or they fetch a binary the package runs.
 * - `skip`: the scripts neither build, fetch nor start anything the scan could see (banners,
 *   funding messages, dev-tool set-up such as git hooks): the package works without them.
 * - `review`: the scan cannot tell (install-time code that starts processes or writes files
 *   without a recognisable build or download, or no scan yet).
 */
import type { PackageResult } from './api';

export type ScriptRecommendation = 'allow' | 'skip' | 'deny' | 'review';

export interface ScriptAdvice {
  readonly recommendation: ScriptRecommendation;
  readonly reason: string;
  /** The hooks npm would run, with their commands when the service reported them. */
  readonly scripts: readonly { readonly name: string; readonly command?: string }[];
}

/** The lifecycle hooks an install from the registry runs (`prepare` runs only for git and local installs). */
export const INSTALL_HOOKS = ['preinstall', 'install', 'postinstall'] as const;

/**
 * One step of a native build: the builder alone, with options, no payload. A command is a native
 * build only when every step joined by `||` or `&&` is one of these (`prebuild-install || node-gyp
 * rebuild`); `node-gyp rebuild; node steal.js` is not.
 */
const NATIVE_STEP =
  /^(?:node-gyp(?:-build)?|prebuild-install|node-pre-gyp|cmake-js|napi-postinstall|electron-rebuild|node-gyp-build-optional-packages)(?:\s+(?:rebuild|install|build|configure|--?[\w-]+(?:=[\w.@/-]+)?))*$/;
const NPM_RUN_STEP = /^npm\s+run\s+(?:build|rebuild|install|compile)[\w:-]*$/;

function isNativeBuild(command: string): boolean {
  if (/[;|&`$<>]/.test(command.replace(/\s(?:\|\||&&)\s/g, ' '))) return false;
  return command
    .split(/\s(?:\|\||&&)\s/)
    .map((step) => step.trim())
    .every((step) => NATIVE_STEP.test(step) || NPM_RUN_STEP.test(step));
}
/** Commands that only print, or set up tooling a consumer of the package does not need. */
const NOT_NEEDED =
  /^(?:echo\b|opencollective(?:-postinstall)?\b|husky(?:\s+install)?\b|is-ci\b|node\s+-e\s+["']?try\s*\{\s*require\(['"]\.\/postinstall['"]\)|patch-package\b|simple-git-hooks\b|lefthook\s+install\b)/;

const INSTALL_THREATS = new Set(['install_script_injection', 'malicious_code', 'data_exfiltration']);

/** The hooks an install from the registry runs (`prepare` runs only for git and local installs). */
function hooksOf(r: PackageResult): { name: string; command?: string }[] {
  const run = (name: string) => (INSTALL_HOOKS as readonly string[]).includes(name);
  if (r.install_time && r.install_time.scripts.length > 0)
    return r.install_time.scripts.filter((s) => run(s.name));
  return INSTALL_HOOKS.filter((h) => r.install_scripts?.[h] === true).map((name) => ({ name }));
}

/** Advice for one scanned package, or undefined when it has no install scripts. */
export function scriptAdvice(r: PackageResult): ScriptAdvice | undefined {
  const scripts = hooksOf(r);
  if (scripts.length === 0) return undefined;
  const advice = (recommendation: ScriptRecommendation, reason: string): ScriptAdvice => ({
    recommendation,
    reason,
    scripts,
  });
  const threat = r.agentic_threats.find((t) => t.confidence >= 0.5 && INSTALL_THREATS.has(t.threat_type));
  if (r.risk_level === 'critical' || threat) {
    const why = threat
      ? `${threat.threat_type} (confidence ${threat.confidence.toFixed(2)})${threat.location ? ` at ${threat.location}` : ''}`
      : (r.risk_reasons[0] ?? 'rated critical');
    return advice('deny', `the scan found ${why}: do not let it run`);
  }
  const commands = scripts.map((s) => s.command ?? '').filter(Boolean);
  const it = r.install_time;
  if (commands.length > 0 && commands.every(isNativeBuild))
    return advice('allow', 'builds or fetches its native addon; the package does not load without it');
  if (it?.makes_requests) {
    const from = it.domains.length > 0 ? ` from ${it.domains.slice(0, 3).join(', ')}` : '';
    // A download the package needs leaves native code behind; a download that is run is a dropper.
    return r.capabilities?.native?.has_native
      ? advice('allow', `downloads the native binary it ships${from}`)
      : advice('review', `its install-time code makes network requests${from}; check what it fetches`);
  }
  if (r.capabilities?.native?.has_native && (it === undefined || it.spawns_children))
    return advice('allow', 'sets up the native code the package ships');
  if (it === undefined)
    return advice('review', 'the service reported no install-time behaviour for this scan; rescan to judge');
  const notNeeded = (c: string) => NOT_NEEDED.test(c.trim()) && !/[;&|`$<>]/.test(c);
  if (it.spawns_children && !commands.every(notNeeded))
    return advice(
      'review',
      `its install-time code starts ${it.commands.slice(0, 3).join(', ') || 'processes'}`,
    );
  return advice(
    'skip',
    commands.length > 0 && commands.every(notNeeded)
      ? 'prints a message or sets up development tooling only; the package works without it'
      : 'its install-time code neither builds, downloads nor starts anything; the package works without it',
  );
}
