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

const HOOKS = ['preinstall', 'install', 'postinstall'] as const;

/** Commands that build or fetch a native addon. */
const NATIVE_BUILD =
  /\b(?:node-gyp(?:-build)?|prebuild-install|node-pre-gyp|cmake-js|napi-postinstall|prebuildify-load|electron-rebuild)\b/;
/** Commands that only print, or set up tooling a consumer of the package does not need. */
const NOT_NEEDED =
  /^(?:echo\b|opencollective(?:-postinstall)?\b|husky(?:\s+install)?\b|is-ci\b|node\s+-e\s+["']?try\s*\{\s*require\(['"]\.\/postinstall['"]\)|patch-package\b|simple-git-hooks\b|lefthook\s+install\b)/;

const INSTALL_THREATS = new Set(['install_script_injection', 'malicious_code', 'data_exfiltration']);

/** The hooks an install from the registry runs (`prepare` runs only for git and local installs). */
function hooksOf(r: PackageResult): { name: string; command?: string }[] {
  const run = (name: string) => (HOOKS as readonly string[]).includes(name);
  if (r.install_time && r.install_time.scripts.length > 0)
    return r.install_time.scripts.filter((s) => run(s.name));
  return HOOKS.filter((h) => r.install_scripts?.[h] === true).map((name) => ({ name }));
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
  if (commands.some((c) => NATIVE_BUILD.test(c)))
    return advice('allow', 'builds or fetches its native addon; the package does not load without it');
  if (it?.makes_requests) {
    const from = it.domains.length > 0 ? ` from ${it.domains.slice(0, 3).join(', ')}` : '';
    return r.capabilities?.native?.has_native || it.spawns_children
      ? advice('allow', `downloads a binary it needs${from}`)
      : advice('review', `its install-time code makes network requests${from}; check what it fetches`);
  }
  if (r.capabilities?.native?.has_native && (it === undefined || it.spawns_children))
    return advice('allow', 'sets up the native code the package ships');
  if (it === undefined)
    return advice('review', 'the service reported no install-time behaviour for this scan; rescan to judge');
  if (it.spawns_children && !commands.every((c) => NOT_NEEDED.test(c.trim())))
    return advice(
      'review',
      `its install-time code starts ${it.commands.slice(0, 3).join(', ') || 'processes'}`,
    );
  return advice(
    'skip',
    commands.length > 0 && commands.every((c) => NOT_NEEDED.test(c.trim()))
      ? 'prints a message or sets up development tooling only; the package works without it'
      : 'its install-time code neither builds, downloads nor starts anything; the package works without it',
  );
}
