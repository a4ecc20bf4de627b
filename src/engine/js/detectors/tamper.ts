/**
 * Files the package does not own, changed without anyone calling it.
 *
 * An npm package's install step has no reason to write, delete, truncate or move files outside
 * its own folder, and a package has no reason to do so the moment it is loaded. The exceptions
 * are caches and temporary folders, tools' own generated folders under node_modules
 * (`node_modules/.prisma`, `.cache`), and a settings folder named after the package. Whatever the
 * change is for (a wiper, a planted start-up entry, a worm copying itself into other packages, a
 * patched application), the act is the same, and this rule reports the act; the rules of each
 * kind of attack report what it is for, with more confidence.
 *
 * Only code that runs unprompted counts: install-time code, and the top level of the entry point
 * and of the modules it requires (with the functions that code calls). A function nobody calls
 * is what a tool does when its user asks; a formatter rewriting the project is that.
 */
import { SENSITIVE_PATH } from '../../indicators';
import { escapeRegExp } from '../../text';
import { SYSTEM_PATH, homeForm, isUserDataPath } from '../../script-behaviour';
import { GIT_HOOK_DIR } from '../../shell';
import { asString, type AstNode, type Val } from '../values';
import type { Detectors } from './index';

/** Caches and temporary folders, under home or anywhere. */
const CACHE =
  /(?:^|\/)(?:\.cache|\.npm|\.node-gyp|\.pnpm-store|\.yarn\/berry\/cache|Library\/Caches|AppData\/Local\/Temp|AppData\/Local\/[^/]+\/Caches?|ms-playwright|tmp|temp)(?:\/|$)/i;
/** Calls that only create (a folder, a temporary file): nothing is replaced. */
const CREATE_ONLY =
  /^(?:mkdir|mkdirSync|mkdirp|mkdirpSync|ensureDir|ensureDirSync|mkdtemp|mkdtempSync|extract)$/;
/** Calls that remove, empty or move what is there. */
const REMOVES =
  /^(?:unlink|unlinkSync|rm|rmSync|rmdir|rmdirSync|remove|removeSync|emptyDir|emptyDirSync|truncate|truncateSync|rename|renameSync|move|moveSync)$|^(?:rimraf|del|trash|premove)\b/;

/**
 * The package's own place outside its folder: a settings folder named after it (`~/.name`,
 * `~/.config/name`; under `~/.config` and the like, also its scope's name or, for `name-cli`, the
 * product's), or a program named after it in a bin folder (`/usr/local/bin/name-cli`).
 */
function ownPlace(d: Detectors, path: string): boolean {
  const full = d.input.modules?.packageName?.toLowerCase();
  const name = full?.replace(/^@[^/]+\//, '');
  if (!full || !name) return false;
  // (No package owns where credentials are kept, whatever it is called.)
  if (SENSITIVE_PATH.test(path)) return false;
  const m = /^~\/(\.config\/|\.local\/share\/|AppData\/(?:Roaming|Local)\/)?\.?([^/]+)/.exec(path);
  const seg = m?.[2]?.toLowerCase();
  if (seg === name) return true;
  // Under a settings root (`~/.config/<x>`, not a dot-folder of home, where other tools keep
  // theirs: `~/.docker`, `~/.kube`), the name of a `-cli` package's product or of its scope.
  if (m?.[1] && seg !== undefined && seg.length >= 3) {
    const scope = /^@([^/]+)\//.exec(full)?.[1];
    if (seg === scope || seg === name.replace(/[-_.]cli$/, '')) return true;
  }
  const bin = /\/bin\/([^/]+)$/.exec(path)?.[1];
  return bin !== undefined && new RegExp(`^${escapeRegExp(name)}(?:[-_.]|$)`).test(bin.toLowerCase());
}

/** What the changed path is, when the package does not own it; undefined when it does or it is not known. */
function foreign(
  d: Detectors,
  v: Val | undefined,
  removes: boolean,
  when: 'install' | 'load',
): string | undefined {
  const t = v?.t;
  const raw = asString(v) ?? (v?.k === 'str' ? v.v : undefined);
  // Backslashes as slashes and a home folder written out (`C:\\Users\\<name>`) as `~`.
  const path = raw === undefined ? undefined : homeForm(raw.replace(/\\/g, '/'));
  // (Not the listed files it changes only when they carry its own marker: see enterBranch.)
  if (t?.has('user_listing'))
    return d.ownMarkerGate > 0 ? undefined : `files it lists${path ? ` (${path.slice(0, 50)})` : ''}`;
  if (path !== undefined && CACHE.test(path)) return undefined;
  // The project's own git hooks are what hook managers write, reached through `../..` or the
  // project folder (a hook that downloads or sends is reported by the git-hook rule).
  if (path !== undefined && GIT_HOOK_DIR.test(path)) return undefined;
  if (t?.has('outside_pkg')) {
    // Tools' generated folders beside the packages (`node_modules/.prisma`, `.cache`, `.bin`).
    if (
      path !== undefined &&
      /(?:node_modules|\.\.)\/\.(?:prisma|cache|vite|bin|pnpm|vitest|nx|turbo|angular|svelte-kit|parcel-cache)\b/.test(
        path,
      )
    )
      return undefined;
    return path && !/^\$\{…\}$/.test(path) ? path.slice(0, 60) : 'a path outside its own folder';
  }
  // After `process.chdir(elsewhere)`, a relative path names a file there.
  if (
    d.foreignCwd !== undefined &&
    path !== undefined &&
    !t?.size &&
    !/^(?:[/~$%]|[A-Za-z]:)/.test(path) &&
    !/^\$\{…\}/.test(path)
  )
    return `${d.foreignCwd}/${path}`.slice(0, 60);
  if (path === undefined || t?.has('own_dir')) {
    // At load time the working directory is the user's project (npm runs install steps in the
    // package's own folder).
    return when === 'load' && removes && t?.has('cwd') && d.hostRun === 0 ? "the project's files" : undefined;
  }
  if (ownPlace(d, path)) return undefined;
  if (/^~(?:\/|$)/.test(path) || SYSTEM_PATH.test(path) || isUserDataPath(path)) return path.slice(0, 60);
  // (A build tool's plugin cleaning the output folder of the project it builds is doing its job.)
  if (when === 'load' && removes && t?.has('cwd') && d.hostRun === 0) return path.slice(0, 60);
  return undefined;
}

/**
 * A file changed (`how`: the fs method or deleting module) at `target`: a finding when the
 * package does not own it and the code runs unprompted.
 */
export function foreignChange(
  d: Detectors,
  node: AstNode,
  how: string,
  target: Val | undefined,
  removes = REMOVES.test(how),
): void {
  const when = d.unprompted;
  if (!when || CREATE_ONLY.test(how)) return;
  const what = foreign(d, target, removes, when);
  if (!what) return;
  const verb = removes ? 'deletes or moves' : 'writes';
  d.threat(
    'js.foreign-file-change',
    when === 'install' ? 'install_script_injection' : 'malicious_code',
    node,
    `${verb} ${what}, which the package does not own (${how}), ${when === 'install' ? 'while it installs' : 'as soon as it is loaded'}`,
    when,
  );
}

/** A command run from code that changes a file the package does not own (`what`: the act), unprompted. */
export function foreignCommand(d: Detectors, node: AstNode, what: string): void {
  const when = d.unprompted;
  if (!when) return;
  d.threat(
    'js.foreign-file-change',
    when === 'install' ? 'install_script_injection' : 'malicious_code',
    node,
    `runs a command that ${what}, which the package does not own, ${when === 'install' ? 'while it installs' : 'as soon as it is loaded'}`,
    when,
  );
}

/** `process.chdir(dir)`: later relative paths are under `dir`; remembered when the package does not own it. */
export function chdir(d: Detectors, dir: Val | undefined): void {
  d.cwdMoved = true;
  const what = foreign(d, dir, false, 'install');
  d.foreignCwd = what ? (asString(dir) ?? what).replace(/\\/g, '/').replace(/\/+$/, '') : undefined;
}
