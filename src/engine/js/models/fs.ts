/**
 * API model: fs and fs-like modules (fs/promises, fs-extra, graceful-fs map to `fs`), recursive
 * deleters (rimraf, del, trash, premove) and `path` joins. Reads of credential files return
 * `secret_file` data, of images `image` bytes, listings of the user's home or the project
 * `user_listing` names; writes are reported with their path and data.
 */
import { posix } from 'node:path';
import { SENSITIVE_PATH } from '../../indicators';
import { isUserDataPath } from '../../script-behaviour';
import type { Evaluator } from '../evaluator';
import { UNKNOWN, asString, str, unknown, withTaint, type AstNode, type Val } from '../values';
import { sourceText } from '../ast';
import { writtenCode } from './code';
import type { ApiCall, CallbackCall } from './model';

const FS_READ = new Set([
  'readFile',
  'readFileSync',
  'createReadStream',
  'readdir',
  'readdirSync',
  'read',
  'readSync',
  'readJson',
  'readJsonSync',
  'readJSON',
  'readlink',
  'readlinkSync',
  'opendir',
  'opendirSync',
  'readv',
  'readvSync',
]);
const WRITES_TEXT = /^(?:writeFile|writeFileSync|outputFile|outputFileSync)$/;
const FS_WRITE = new Set([
  'writeFile',
  'writeFileSync',
  'appendFile',
  'appendFileSync',
  'createWriteStream',
  'mkdir',
  'mkdirSync',
  'rm',
  'rmSync',
  'rmdir',
  'rmdirSync',
  'unlink',
  'unlinkSync',
  'rename',
  'renameSync',
  'copyFile',
  'copyFileSync',
  'cp',
  'cpSync',
  'symlink',
  'symlinkSync',
  'link',
  'linkSync',
  'chmod',
  'chmodSync',
  'chown',
  'chownSync',
  'truncate',
  'truncateSync',
  'write',
  'writeSync',
  'writev',
  'writevSync',
  'utimes',
  'utimesSync',
  'outputFile',
  'outputFileSync',
  'outputJson',
  'outputJsonSync',
  'writeJson',
  'writeJsonSync',
  'writeJSON',
  'ensureDir',
  'ensureDirSync',
  'ensureFile',
  'ensureFileSync',
  'mkdirs',
  'mkdirsSync',
  'mkdirp',
  'mkdirpSync',
  'remove',
  'removeSync',
  'emptyDir',
  'emptyDirSync',
  'move',
  'moveSync',
  'copy',
  'copySync',
  'mkdtemp',
  'mkdtempSync',
]);
const FS_STAT = /^(?:existsSync|exists|stat|statSync|lstat|lstatSync|access|accessSync|open|openSync|watch)$/;
/** Images, fonts, media and binary data: files whose bytes are never code a program runs. */
const IMAGE_PATH =
  /\.(?:png|jpe?g|gif|bmp|ico|webp|svg|avif|tiff?|woff2?|ttf|otf|eot|mp3|mp4|m4a|wav|ogg|webm|mov|pdf|zip|gz|tgz|bin|dat|wasm)$/i;

/** `new AdmZip(buffer)`: the archive object, whose methods unpack it (see fsApi). */
export function archiveModuleCall(m: { mod: string }): Val | undefined {
  return m.mod === 'adm-zip' ? { k: 'mod', name: 'adm-zip' } : undefined;
}

/** How many folders deep a package file sits (`lib/x.js`: 1). */
function folderDepth(file: string): number {
  return file.split(/[\\/]/).filter((s) => s && s !== '.').length - 1;
}

/**
 * Path pieces joined to a folder `depth` levels below the package root climb out of the package:
 * more `..` than folders, counted piece by piece (`'..', 'bin'` from lib/ stays inside).
 */
function climbsOut(pieces: (string | undefined)[], depth: number): boolean {
  let level = depth;
  for (const piece of pieces) {
    if (piece === undefined) return false;
    for (const seg of piece.split(/[\\/]+/)) {
      if (seg === '..') level--;
      else if (seg && seg !== '.') level++;
      if (level < 0) return true;
    }
  }
  return false;
}

/** Paths a credential file was copied or moved to, per file analysed. */
const copies = new WeakMap<Evaluator, Set<string>>();
function secretCopies(ev: Evaluator): Set<string> {
  let s = copies.get(ev);
  if (!s) copies.set(ev, (s = new Set()));
  return s;
}

/** Another process's memory or environment under /proc (not this process's own). */
const PROC_MEMORY = /^\/proc\/(?!self\/|thread-self\/)[^/]+\/(?:task\/[^/]+\/)?(?:mem|environ)$/;

/**
 * A path that names a cache or build-output folder (`~/.cache/tool`, `node_modules/.cache`, `dist`),
 * or one configured by a variable named for a cache or temporary folder (`$TOOL_CACHE_DIR`):
 * what a cleaner lists and prunes, not the user's files. (Not one that climbs out of it.)
 */
function namesCacheDir(p: string): boolean {
  return (
    !p.includes('..') &&
    (/(?:^|\/)(?:\.cache|cache|\.turbo|\.next|\.nuxt|\.parcel-cache|\.eslintcache|dist|build|coverage|tmp|\.tmp|out)(?:\/|$)/i.test(
      p,
    ) ||
      /^\$\w*(?:CACHE|TMP|TEMP)\w*(?:\/|$)/i.test(p))
  );
}

/**
 * A tool's own dot-folder in the project (`<cwd>/.changeset`, `.husky`, `.nx`): where it keeps
 * its work (changesets it consumes, hooks it manages), not the user's files. The repository's
 * history and credentials folders are not tools' folders.
 */
function toolStateDir(p: string): boolean {
  return /^(?:\$\{…\}|\.)?\/?\.(?!(?:git|ssh|aws|gnupg|kube|docker|config|env|vscode|idea)$)[\w-]+\/?$/i.test(
    p,
  );
}

/**
 * A folder the user names through the package's own setting (`$LUMENSHOT_BROWSERS_PATH` for
 * `lumenshot-core`): where the tool keeps what it downloads, not the user's files.
 */
function ownSettingDir(p: string, packageName: string | undefined): boolean {
  const prefix = /(?:^|\/)\$([A-Z][A-Z0-9]*)_[A-Z0-9_]+(?:\/|$)/.exec(p)?.[1];
  if (!prefix || prefix.length < 3 || !packageName || p.includes('..')) return false;
  // (Variables of the system, npm or CI are nobody's own setting, whatever the package is called.)
  if (
    /^(?:INIT|XDG|GITHUB|RUNNER|AWS|NPM|NODE|HOME|USER|APP|LOCAL|PROGRAM|SYSTEM|TMP|TEMP|CI|PWD|OLDPWD)$/.test(
      prefix,
    )
  )
    return false;
  return packageName
    .replace(/^@/, '')
    .split(/[-_./]/)
    .some((w) => w.length >= 3 && w.toUpperCase() === prefix);
}

/**
 * A data file of the package itself (`fs.readFileSync(path.join(__dirname, '../config/x.yml'))`):
 * its text, so what it keeps (commands split into parts, addresses) is followed where the code uses
 * it. Only configuration-like files, templates and text assets (SVG, HTML, Markdown), small ones,
 * whole reads.
 */
function ownDataFile(
  ev: Evaluator,
  method: string,
  p: string | undefined,
  a0: Val | undefined,
): string | undefined {
  if (!/^readFile(?:Sync)?$/.test(method) || !p || !a0?.t?.has('own_dir')) return undefined;
  const rel = /^\$\{…\}\/(.+)$/.exec(p)?.[1];
  if (
    !rel ||
    !/\.(?:json|ya?ml|txt|ini|cfg|conf|toml|csv|tsv|tpl|tmpl|template|svg|xml|html?|md|css|properties|plist|env|map|pub)$/i.test(
      rel,
    ) ||
    rel.includes('${…}')
  )
    return undefined;
  const file = ev.input.modules?.resolve(ev.input.path, `./${rel}`);
  return file && file.text.length <= 64_000 ? file.text : undefined;
}

/**
 * A folder of the package itself listed (`fs.readdirSync(path.join(__dirname, 'icons'))`): the
 * names it holds, so a loop over them reads the package's own files (and what they keep).
 */
function ownListing(
  ev: Evaluator,
  method: string,
  p: string | undefined,
  a0: Val | undefined,
  opts: Val | undefined,
): Val | undefined {
  if (!/^readdir(?:Sync)?$/.test(method) || !p || !a0?.t?.has('own_dir')) return undefined;
  const rel = /^\$\{…\}(?:\/(.*))?$/.exec(p);
  if (!rel || rel[1]?.includes('${…}')) return undefined;
  const names = ev.input.modules?.list?.(ev.input.path, `./${rel[1] ?? ''}`);
  if (!names) return undefined;
  // With `withFileTypes`, entries whose `name` is known.
  const ft = opts?.k === 'obj' ? opts.props.get('withFileTypes') : undefined;
  const dirents = ft?.k === 'bool' && ft.v;
  return {
    k: 'arr',
    items: names.map((n): Val =>
      dirents ? { k: 'obj', props: new Map([['name', { k: 'str', v: n }]]) } : { k: 'str', v: n },
    ),
  };
}

export function fsApi(ev: Evaluator, c: ApiCall): Val | undefined {
  const { node, mod, path, method, args, a0, scope } = c;
  if (mod === 'fs') {
    const p = asString(a0) ?? (a0?.k === 'str' ? a0.v : undefined);
    // `fs.glob(patterns, { cwd })` (Node 22): a listing, of the user's files when it runs in
    // their home, a drive root or the project.
    if (method === 'glob' || method === 'globSync') {
      ev.effects.fileRead(node, method, p);
      // (Patterns that all name caches or build output list what a cleaner prunes.)
      const patterns = a0?.k === 'arr' ? a0.items.map(asString) : [p];
      if (patterns.length && patterns.every((x) => x !== undefined && namesCacheDir(x))) return UNKNOWN;
      const cwd = args[1]?.k === 'obj' ? args[1].props.get('cwd') : undefined;
      const at = cwd ? (asString(cwd) ?? (cwd.k === 'str' ? cwd.v : undefined)) : undefined;
      if (
        cwd?.t?.has('user_listing') ||
        cwd?.t?.has('cwd') ||
        (at !== undefined && isUserDataPath(at)) ||
        (p !== undefined && isUserDataPath(p.replace(/[*{].*$/, '')))
      )
        return withTaint({ k: 'unknown' }, [], 'user_listing');
      return UNKNOWN;
    }
    // Another process's memory or environment (`/proc/<pid>/mem` through a descriptor,
    // `/proc/<pid>/environ`): the secrets a CI runner or another program holds, scraped.
    if (
      p &&
      /^(?:readFile|readFileSync|createReadStream|open|openSync)$/.test(method) &&
      PROC_MEMORY.test(posix.normalize(p))
    ) {
      ev.effects.fileRead(node, method, p);
      ev.effects.processMemory(node, p);
      ev.effects.source(scope, 'secret_file', node);
      return withTaint({ k: 'unknown' }, [], 'secret_file');
    }
    // `fs.readSync(fd, buf, …)` on a descriptor of a credential file: the buffer holds its secret
    // (`fs.readFileSync(fd)` returns it).
    if (
      /^(?:read|readSync|readFile|readFileSync)$/.test(method) &&
      a0?.t?.has('secret_file') &&
      a0.k === 'unknown'
    ) {
      const buf = args[1];
      if (buf && buf !== UNKNOWN && (buf.k === 'unknown' || buf.k === 'str'))
        buf.t = new Set([...(buf.t ?? []), 'secret_file']);
      return withTaint({ k: 'unknown' }, [a0]);
    }
    if (FS_READ.has(method)) {
      ev.effects.fileRead(node, method, p);
      // (A public key, `~/.ssh/id_ed25519.pub`, is not a secret.)
      if (
        (p && ((SENSITIVE_PATH.test(p) && !/\.pub$/i.test(p)) || secretCopies(ev).has(p))) ||
        a0?.t?.has('secret_path')
      ) {
        ev.effects.source(scope, 'secret_file', node);
        return withTaint({ k: 'unknown' }, [], 'secret_file');
      }
      // (An SVG of the package is text, known here; other images are not.)
      const data = ownDataFile(ev, method, p, a0);
      if (data !== undefined) return { k: 'str', v: data };
      if (p && IMAGE_PATH.test(p)) return withTaint({ k: 'unknown' }, [], 'image');
      const names = ownListing(ev, method, p, a0, args[1]);
      if (names) return names;
      // A listed file read to be rewritten (a formatter, a codemod) or encrypted (ransomware).
      if (/^readFile/.test(method) && a0?.t?.has('user_listing'))
        return withTaint({ k: 'unknown' }, [], 'listed_content');
      // The entries of the user's home, a drive root or the project: what a wiper walks.
      // So are the other packages beside this one (the folder above its own).
      if (/^(?:readdir|readdirSync|opendir|opendirSync)$/.test(method)) {
        const t = a0?.t;
        // (A cache folder, by its name or the variable that configures it, is what a cleaner
        // prunes; every path it may be counts: `$X_CACHE || homedir()` is the home folder too.)
        const alt = a0?.k === 'str' && a0.alt ? (asString(a0.alt) ?? null) : undefined;
        const paths = [p, alt].filter((x): x is string => typeof x === 'string');
        if (
          p !== undefined &&
          alt !== null &&
          paths.every(
            (x) =>
              namesCacheDir(x) ||
              ownSettingDir(x, ev.input.modules?.packageName) ||
              (t?.has('cwd') && toolStateDir(x)),
          )
        )
          return UNKNOWN;
        // (npm runs install steps in the package's own folder: there the working directory
        // listed is the package's files, not its user's project, unless the code moved.)
        if (
          t?.has('user_listing') ||
          (t?.has('cwd') && (!ev.installTime || ev.effects.cwdMoved)) ||
          t?.has('outside_pkg') ||
          paths.some((x) => isUserDataPath(x))
        )
          return withTaint({ k: 'unknown' }, [], 'user_listing');
      }
      return UNKNOWN;
    }
    // `fs.writeSync(fd, …)` on a descriptor opened for writing: a write to its file, over what it
    // held (`fs.openSync(f, 'r+')` then zeros written over it).
    const fdPath =
      a0 && /^(?:write|writeSync|writev|writevSync|ftruncate|ftruncateSync)$/.test(method)
        ? ev.writeDescriptors.get(a0)
        : undefined;
    if (fdPath) {
      const path = asString(fdPath);
      ev.effects.fileWrite(node, 'writeFileSync', path, fdPath, [fdPath, ...args.slice(1)]);
      return UNKNOWN;
    }
    if (FS_WRITE.has(method)) {
      ev.effects.fileWrite(node, method, p, a0, args);
      if (p !== undefined && WRITES_TEXT.test(method) && /\.[cm]?js$/i.test(p))
        writtenCode(ev, node, p, args[1]);
      // A write stream: what is piped into it later is written to its file.
      if (method === 'createWriteStream' && p !== undefined && a0) {
        const stream: Val = { k: 'unknown' };
        ev.writeStreams.set(stream, { path: p, pathVal: a0 });
        return stream;
      }
      // A credential file copied or moved elsewhere first (a browser's locked database copied to a
      // temporary file): the copy is as secret as the original.
      const dest = /^(?:copyFile|copyFileSync|cp|cpSync|copy|copySync|rename|renameSync|move|moveSync)$/.test(
        method,
      )
        ? (asString(args[1]) ?? (args[1]?.k === 'str' ? args[1].v : undefined))
        : undefined;
      if (dest && ((p && SENSITIVE_PATH.test(p)) || a0?.t?.has('secret_path')) && secretCopies(ev).size < 50)
        secretCopies(ev).add(dest);
      return UNKNOWN;
    }
    if (FS_STAT.test(method)) {
      ev.effects.fileStat(p);
      // A descriptor opened to write (`'w'`, `'a'`, `'r+'`): what is written through it lands in
      // the file.
      if (/^open(?:Sync)?$/.test(method) && a0 && /^(?:[wa]|r\+)/.test(asString(args[1]) ?? '')) {
        const fd: Val = { k: 'unknown' };
        ev.writeDescriptors.set(fd, a0);
        return fd;
      }
      // A descriptor of a credential file opened to read: what is read through it is the secret.
      if (
        /^open(?:Sync)?$/.test(method) &&
        ((p && SENSITIVE_PATH.test(p) && !/\.pub$/i.test(p)) || a0?.t?.has('secret_path'))
      ) {
        ev.effects.fileRead(node, method, p);
        ev.effects.source(scope, 'secret_file', node);
        return withTaint({ k: 'unknown' }, [], 'secret_file');
      }
      return UNKNOWN;
    }
    return unknown(args);
  }
  // An Electron archive packed to a path (`asar.createPackage(src, dest)`): the file at dest is
  // written, whole.
  if ((mod === '@electron/asar' || mod === 'asar') && /^createPackage/.test(method)) {
    const destVal = args[1];
    const dest = asString(destVal) ?? (destVal?.k === 'str' ? destVal.v : undefined);
    if (dest) ev.effects.fileWrite(node, 'writeFile', dest, destVal, args);
    return UNKNOWN;
  }
  // Archives unpacked into a folder (`tar.x({ cwd })`, `new AdmZip(buf).extractAllTo(dir)`,
  // `unzipper.Extract({ path })`): every file in it is written.
  if (/^(?:tar|unzipper|adm-zip)$/.test(mod)) {
    if (/^(?:x|extract|Extract|extractAllTo|extractAllToAsync)$/.test(method)) {
      const opts = a0?.k === 'obj' ? a0 : undefined;
      const dirVal = opts
        ? (opts.props.get('cwd') ?? opts.props.get('C') ?? opts.props.get('path') ?? opts.props.get('dir'))
        : a0;
      const dir = asString(dirVal) ?? (dirVal?.k === 'str' ? dirVal.v : undefined);
      if (dir) ev.effects.fileWrite(node, 'extract', dir, dirVal, args);
      return UNKNOWN;
    }
  }
  // glob.sync('~/**/*.db') / fg(pattern) / globby(patterns): a listing, of the user's files when
  // the pattern starts at home, a drive or the file-system root, or the project npm ran in.
  if (
    /^(?:glob|fast-glob|globby|tiny-glob)$/.test(mod) &&
    /^(?:|sync|globSync|glob|async|stream)$/.test(path)
  ) {
    const patterns = a0?.k === 'arr' ? a0.items : [a0];
    const opts = args[1]?.k === 'obj' ? args[1] : undefined;
    const cwdOpt = opts?.props.get('cwd');
    const roots = [...patterns, cwdOpt].filter((v): v is Val => v !== undefined);
    // The folder a pattern starts from: what comes before its first wildcard.
    const base = (v: Val) =>
      (asString(v) ?? (v.k === 'str' ? v.v : '')).split(/[*?{[]/)[0]!.replace(/(.)\/+$/, '$1');
    // Patterns naming credential files (`.npmrc`, `.git-credentials`, `.ssh/id_*`): the paths of
    // secrets, whose contents a read then carries.
    const taint: 'secret_path' | 'user_listing' | undefined = patterns.some((v) =>
      SENSITIVE_PATH.test(asString(v) ?? (v?.k === 'str' ? v.v : '')),
    )
      ? 'secret_path'
      : roots.some((v) => v.t?.has('user_listing') || v.t?.has('cwd') || isUserDataPath(base(v)))
        ? 'user_listing'
        : undefined;
    if (!taint) return UNKNOWN;
    // The paths found stand for the patterns that found them (`~/**/package.json`), so what is
    // done with each (rewritten as a manifest, read as a key file) is seen with its shape.
    const cwd = cwdOpt ? (asString(cwdOpt) ?? (cwdOpt.k === 'str' ? cwdOpt.v : undefined)) : undefined;
    const items = patterns.slice(0, 10).map((v) => {
      const p = (v ? asString(v) : undefined) ?? (v?.k === 'str' ? v.v : '${…}');
      return withTaint({ k: 'str', v: cwd && !/^[/~]/.test(p) ? `${cwd}/${p}` : p }, [v], taint);
    });
    return withTaint({ k: 'arr', items }, [], taint);
  }
  // rimraf(path) / rimraf.sync(path) / del(paths): recursive deletion by module.
  if (/^(?:rimraf|del|trash|premove)$/.test(mod)) {
    ev.effects.recursiveDelete(node, `${mod}${path ? `.${path}` : ''}`, a0);
    return UNKNOWN;
  }
  if (mod === 'path' && /^(?:join|resolve|normalize|posix\.join|win32\.join|dirname)$/.test(path)) {
    // `path.dirname(p)`: a known path's folder; `__filename`'s is the package file's own folder;
    // the parent of the package's folder (or of a path climbed from it) is one step up, as
    // `path.join(p, '..')` is.
    if (path === 'dirname') {
      const known = asString(a0);
      // (A variable's value stood in by its name, `$INIT_CWD`, is a folder whose parent is not
      // known here: not the relative path `.`.)
      if (known !== undefined && !known.includes('${…}') && !/^(?:\$\w+|%\w+%)$/.test(known))
        return str(posix.dirname(known.replace(/\\/g, '/')), args);
      const arg = c.argNodes[0];
      if (arg?.type === 'Identifier' && arg.name === '__filename') return a0 ?? UNKNOWN;
      // (`dirname(fileURLToPath(import.meta.url))`: the module's folder, an ES module's `__dirname`.)
      if (
        a0?.k === 'unknown' &&
        a0.t?.has('own_dir') &&
        arg?.type === 'CallExpression' &&
        /^(?:import\.meta\.url|newURL\(import\.meta\.url\))$/.test(
          sourceText(ev.input.text, ((arg.arguments ?? []) as AstNode[])[0], 80)?.replace(/\s+/g, '') ?? '',
        )
      )
        return a0;
      // Only the package's own folder is known to be a folder; a path under the working directory
      // may name a file (a config found there), whose folder is not a step up.
      if (!a0?.t?.has('own_dir')) return unknown(args);
    }
    const pieces: Val[] = path === 'dirname' ? [a0 ?? UNKNOWN, { k: 'str', v: '..' }] : args;
    const parts = pieces.map(asString);
    // `path.join(__dirname, '..')`: out of the package's own folder (so is the working directory
    // climbed out of: npm runs a package's scripts in its own folder).
    const own = pieces.findIndex((a) => a.t?.has('own_dir') || a.t?.has('cwd'));
    // The own folder may already carry steps (`${dir}/..` from a climb on an earlier turn).
    const ownArg = own >= 0 ? pieces[own]! : undefined;
    const ownSteps = ownArg?.k === 'str' && ownArg.v.startsWith('${…}') ? ownArg.v.slice(4) : '';
    if (
      own >= 0 &&
      climbsOut(
        [ownSteps, ...parts.slice(own + 1)],
        ownArg!.t?.has('own_dir') ? folderDepth(ev.input.path) : 0,
      )
    ) {
      const out: Val = withTaint(
        { k: 'str', v: parts.map((p) => p ?? '${…}').join('/') },
        pieces,
        'outside_pkg',
      );
      out.t?.delete('own_dir');
      out.t?.delete('cwd');
      return out;
    }
    if (parts.length && parts.every((p) => p !== undefined)) {
      return str(
        (parts as string[])
          .join('/')
          .replace(/\/{2,}/g, '/')
          .replace(/\\/g, '/'),
        pieces,
      );
    }
    return withTaint({ k: 'str', v: parts.map((p) => p ?? '${…}').join('/') }, pieces);
  }
  return undefined;
}

/**
 * `fs.readFile(p, (err, data) => …)`: the data carries what was read; `fs.open(p, 'r', (err, fd)
 * => …)` on a credential file: the descriptor reads its secret (see fsApi); `fs.read(fd, buf, …,
 * (err, n, buffer) => …)`: the buffer holds it.
 */
export function fsCallbackParams(c: CallbackCall): Val[] | undefined {
  const { callee, result } = c;
  if (callee.k !== 'api' || callee.mod !== 'fs' || !result.t?.size) return undefined;
  if (callee.path === 'read') return [UNKNOWN, UNKNOWN, withTaint({ k: 'unknown' }, [result])];
  if (/^read/.test(callee.path)) return [UNKNOWN, withTaint({ k: 'unknown' }, [result])];
  if (callee.path === 'open' && result.t.has('secret_file')) return [UNKNOWN, result];
  return undefined;
}
