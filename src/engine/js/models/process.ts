/**
 * API model: child_process and process spawners (execa, cross-spawn, shelljs, tinyexec …), and
 * Node's internal spawn binding. Each start of a process is reported with its command: a shell
 * command line (`exec`), a program and its argument list (`spawn`, `execFile`), or a Node script
 * (`fork`).
 */
import type { Evaluator } from '../evaluator';
import { PRINTS_CREDENTIAL, isUserDataPath } from '../../script-behaviour';
import {
  UNKNOWN,
  asString,
  flatStrings,
  unknown,
  withTaint,
  type AstNode,
  type Taint,
  type Val,
} from '../values';
import type { ApiCall, CallbackCall, ModuleCall } from './model';
import { compiles } from './code';

/** How a started process receives its command. */
export type SpawnKind = 'shell' | 'argv' | 'fork';

export const SPAWN_MODULES = new Set([
  'execa',
  'cross-spawn',
  'shelljs',
  'child-process-promise',
  'spawn-sync',
  'tinyexec',
]);

const CP_EXEC = new Set(['exec', 'execSync']);

/** Shells and interpreters that read commands from stdin when given no script. */
const SHELL_PROGRAM =
  /^(?:sh|bash|zsh|dash|ksh|ash|cmd|powershell|pwsh|python3?|perl|ruby|node)(?:\.exe)?$|^\$(?:SHELL|COMSPEC)$/i;

/**
 * The user's shell named by the environment (`process.env.SHELL`, `process.env.ComSpec`, read as
 * `$SHELL` / `$ComSpec`) or a shell program by its name.
 */
export function isShellName(name: string): boolean {
  return /^(?:sh|bash|zsh|dash|ksh|cmd|powershell|pwsh)(?:\.exe)?$|^\$(?:SHELL|COMSPEC)$/i.test(name);
}

/** Values of a shell's presentation flags (`-WindowStyle Hidden`, `-ExecutionPolicy Bypass`). */
export const SHELL_FLAG_VALUE = /^(?:Hidden|Minimized|Normal|Bypass|Unrestricted|RemoteSigned)$/i;

/** No script file and no inline code among the arguments: only flags such as `-i`, `-s`, `/Q`. */
function readsCommandsFromStdin(argv: Val | undefined): boolean {
  if (argv === undefined) return true;
  if (argv.k !== 'arr') return false;
  return argv.items.every((v, i) => {
    const a = asString(v);
    // (`powershell -Command -`: the command is read from stdin.)
    if (a === '-' && /^-(?:c|Command)$/i.test(asString(argv.items[i - 1]) ?? '')) return true;
    return (
      a !== undefined &&
      (/^(?:-{1,2}|\/)[\w-]+$/.test(a) || SHELL_FLAG_VALUE.test(a)) &&
      (!/^(?:-c|\/c|\/k|-e|--eval|-Command|-File|-p)$/i.test(a) ||
        (/^-(?:c|Command)$/i.test(a) && asString(argv.items[i + 1]) === '-'))
    );
  });
}
const CP_SPAWN = new Set(['spawn', 'spawnSync', 'execFile', 'execFileSync', 'fork']);
/** Commands that print a listing of files or folders. */
const LISTING_COMMAND = /^\s*(?:find|ls|dir|locate|fd|gci|Get-ChildItem)\s/i;

export function processApi(ev: Evaluator, c: ApiCall): Val | undefined {
  const { node, mod, method, args, a0, s0, scope } = c;
  if (mod === 'child_process') {
    // The other command a condition could give (one per platform) is started as well.
    for (let alt = a0?.k === 'str' ? a0.alt : undefined, n = 0; alt?.k === 'str' && n < 3; alt = alt.alt, n++)
      if (CP_EXEC.has(method) || CP_SPAWN.has(method))
        ev.effects.spawn(node, alt.v, [alt, ...args.slice(1)], CP_EXEC.has(method) ? 'shell' : 'argv', scope);
    if (CP_EXEC.has(method))
      ev.effects.spawn(node, s0 ?? (a0?.k === 'str' ? a0.v : undefined), args, 'shell', scope);
    else if (CP_SPAWN.has(method))
      ev.effects.spawn(
        node,
        method === 'fork' ? 'node' : s0,
        args,
        method === 'fork' ? 'fork' : 'argv',
        scope,
      );
    // Node started with code on its command line (`spawn(process.execPath, ['-e', code])`,
    // `fork(file, [], { execArgv: ['-e', code] })`): that code is compiled, as by eval.
    if (CP_SPAWN.has(method)) {
      const argv = [args[1], args[2]].flatMap((a) =>
        a?.k === 'arr'
          ? a.items
          : a?.k === 'obj' && a.props.get('execArgv')?.k === 'arr'
            ? (a.props.get('execArgv') as Val & { k: 'arr' }).items
            : [],
      );
      const isNode =
        method === 'fork' || /^(?:node|nodejs|bun|deno)(?:\.exe)?$/.test(s0?.split(/[\\/]/).pop() ?? '');
      const at = argv.findIndex((a) => /^(?:-e|--eval|-p|--print)$/.test(asString(a) ?? ''));
      if (isNode && at >= 0 && argv[at + 1])
        compiles(ev, node, 'a node -e child process', argv[at + 1], undefined, undefined, {
          k: 'arr',
          items: [{ k: 'str', v: 'node' }, ...argv.slice(at + 2)],
        });
    }
    // A network program reading what to send from its stdin (`curl --data-binary @- URL`, nc):
    // what the code writes to that stdin goes out.
    const prog = CP_SPAWN.has(method)
      ? s0?.split(/[\\/]/).pop()
      : // `exec('/bin/bash')`: a command line that is only a shell (and its flags).
        /^\s*(?:\S*[\\/])?([\w.]+)(?:\s+-{1,2}\w+)*\s*$/.exec(s0 ?? '')?.[1];
    if (prog && /^(?:curl|wget|nc|ncat|netcat|socat|openssl)(?:\.exe)?$/i.test(prog)) {
      // What a downloader prints (`execFileSync('curl', ['-s', url])`) is what the server sent.
      const words = CP_SPAWN.has(method) ? (args[1]?.k === 'arr' ? flatStrings(args[1]) : []) : [];
      const printed = printsDownload(prog, words);
      return printed
        ? withTaint({ k: 'api', mod: 'child_process', path: 'NetworkChild' }, [], 'network_data')
        : { k: 'api', mod: 'child_process', path: 'NetworkChild' };
    }
    // `execSync('curl -s https://…')`: the same download printed, from a command line.
    if (CP_EXEC.has(method) && s0 !== undefined && !/[|;&<>`$]/.test(s0)) {
      const words = s0.trim().split(/\s+/);
      const first = words[0]?.split(/[\\/]/).pop() ?? '';
      if (/^(?:curl|wget)(?:\.exe)?$/i.test(first) && printsDownload(first, words.slice(1)))
        return withTaint({ k: 'api', mod: 'child_process', path: 'ChildProcess' }, [], 'network_data');
    }
    // Node given `-` for its script (`spawn(process.execPath, ['-'])`): what is written to its
    // stdin is the program it runs.
    // (So is Node given no script at all: with its stdin piped it reads the program from there.)
    const nodeArgs = args[1]?.k === 'arr' ? args[1].items : args[1] === undefined ? [] : undefined;
    const script = nodeArgs?.find((a) => !/^--?[\w-]+(?:=\S*)?$/.test(asString(a) ?? '-x'));
    if (
      prog &&
      /^node(?:\.exe)?$/i.test(prog) &&
      CP_SPAWN.has(method) &&
      nodeArgs &&
      (script === undefined || asString(script) === '-')
    ) {
      // `spawnSync(process.execPath, ['-'], { input: code })`: the program is given at once.
      const opts = args[2]?.k === 'obj' ? args[2] : args[1]?.k === 'obj' ? args[1] : undefined;
      const input = opts?.props.get('input');
      if (input) compiles(ev, node, 'node reading its program from stdin', input, undefined);
      return { k: 'api', mod: 'child_process', path: 'NodeChild' };
    }
    // A shell or interpreter started with no script reads its commands from stdin.
    if (prog && SHELL_PROGRAM.test(prog) && (CP_EXEC.has(method) || readsCommandsFromStdin(args[1])))
      return { k: 'api', mod: 'child_process', path: 'ShellChild' };
    // `find ~ -name .git`, `ls /Users`: what a listing command prints is the user's files.
    if (
      CP_EXEC.has(method) &&
      s0 !== undefined &&
      LISTING_COMMAND.test(s0) &&
      s0.split(/\s+/).slice(1).some(isUserDataPath)
    )
      return withTaint({ k: 'api', mod: 'child_process', path: 'ChildProcess' }, [], 'user_listing');
    // `execSync('gh auth token')`, `execFileSync('gcloud', ['auth', 'print-access-token'])`: what
    // the command prints is a credential. A program is named by its file name (found at run time,
    // `spawnSync(realGit(), …)`, it is what is known of it; spawn and execFile take a path that may
    // hold blanks, `C:\\Program Files\\Git\\cmd\\git.exe`; exec takes a command line). One not known
    // at all runs git's `credential fill` subcommand only if it is git.
    const progText = s0 ?? (a0?.k === 'str' ? a0.v : undefined);
    const prog0 = CP_EXEC.has(method)
      ? progText?.replace(/^\S*[\\/](?=\S*(?:\s|$))/, '').replace(/^(\S+)\.(?:exe|cmd)(?=\s|$)/i, '$1')
      : progText?.replace(/^.*[\\/]/, '').replace(/\.(?:exe|cmd|bat)$/i, '');
    const argLine = args[1]?.k === 'arr' ? flatStrings(args[1]).join(' ') : '';
    const line =
      CP_EXEC.has(method) || method === 'execFileSync' || method === 'spawnSync' || method === 'execFile'
        ? `${prog0 ?? (/^credential\s+fill\b/.test(argLine) ? 'git' : '')} ${argLine}`
        : '';
    // `git ls-files`, `git ls-tree -r --name-only HEAD`: the project's tracked files (what a
    // formatter rewrites and a cleaner prunes: only a deletion under a gate weighs them).
    // (Not the untracked or ignored files `--others`/`--ignored` list: build output, caches.)
    // (Options before the subcommand, `git -C dir --no-pager ls-files`, too; a folder not known here
    // leaves `-C` with no word after it.)
    if (
      /^\s*git\s+(?:(?:-[Cc](?:\s+(?!ls-)\S+)?|--[\w-]+(?:=\S+)?)\s+)*ls-(?:files|tree)\b/.test(line) &&
      !/\s(?:-o|-i|--others|--ignored)\b/.test(line)
    )
      return withTaint({ k: 'api', mod: 'child_process', path: 'ChildProcess' }, [], 'project_files');
    // `git rev-parse --git-dir`: the repository's git folder (hook managers write its hooks/).
    if (/^\s*git\s+rev-parse\s+--(?:absolute-)?git(?:-common)?-dir\s*$/.test(line))
      return { k: 'str', v: '.git' };
    // `git rev-parse --git-path hooks`: a path inside it.
    const gitPath = /^\s*git\s+rev-parse\s+--git-path\s+([\w./-]+)\s*$/.exec(line)?.[1];
    if (gitPath !== undefined && !gitPath.includes('..')) return { k: 'str', v: `.git/${gitPath}` };
    // `git config [--get] core.hooksPath`: the folder git runs hooks from, wherever it is set.
    if (/^\s*git\s+config\s+(?:--(?:get|local|global)\s+)*core\.hookspath\s*$/i.test(line))
      return { k: 'str', v: '.git/hooks' };
    if (line.trim() && PRINTS_CREDENTIAL.test(line))
      return {
        k: 'api',
        mod: 'child_process',
        path: 'ChildProcess',
        t: new Set<Taint>(['secret_env', 'cli_credential']),
      };
    if (CP_EXEC.has(method) || CP_SPAWN.has(method))
      return { k: 'api', mod: 'child_process', path: 'ChildProcess' };
    if (/^NetworkChild\.stdin\.(?:write|end)$/.test(c.path)) {
      ev.effects.sink(node, `stdin of a network program`, args, scope);
      return UNKNOWN;
    }
    if (/^NodeChild\.stdin\.(?:write|end)$/.test(c.path)) {
      compiles(
        ev,
        node,
        'node reading its program from stdin',
        args[0],
        (node.arguments as AstNode[] | undefined)?.[0],
      );
      return UNKNOWN;
    }
    if (/^ShellChild\.stdin\.(?:write|end)$/.test(c.path)) {
      ev.effects.shellInput(node, args);
      return UNKNOWN;
    }
    // What a listing printed, read on (`.toString().trim().split('\n')`), is still the listing (and a
    // download printed is still what the server sent).
    return c.callee.t?.has('user_listing') ||
      c.callee.t?.has('project_files') ||
      c.callee.t?.has('secret_env') ||
      c.callee.t?.has('network_data')
      ? unknown([c.callee])
      : UNKNOWN;
  }
  // process.binding('spawn_sync').spawn({ file, args }): a process started past child_process.
  if (mod.startsWith('binding:') && method === 'spawn' && a0?.k === 'obj') {
    const file = asString(a0.props.get('file'));
    ev.effects.internalSpawn(node, file);
    ev.effects.spawn(
      node,
      file,
      [a0.props.get('file') ?? UNKNOWN, a0.props.get('args') ?? UNKNOWN],
      'argv',
      scope,
    );
    return UNKNOWN;
  }
  if (
    SPAWN_MODULES.has(mod) &&
    /^(?:exec|execa|execaSync|execaCommand|command|sync|spawn|commandSync|\$)$/.test(method)
  ) {
    ev.effects.spawn(
      node,
      s0,
      args,
      method.startsWith('exec') && mod === 'shelljs' ? 'shell' : 'argv',
      scope,
    );
    return UNKNOWN;
  }
  return undefined;
}

/** `execa(cmd, args)`, `crossSpawn(cmd, args)`, `shell(cmd)`. */
export function processModuleCall(ev: Evaluator, c: ModuleCall): Val | undefined {
  if (!SPAWN_MODULES.has(c.mod)) return undefined;
  ev.effects.spawn(c.node, asString(c.args[0]), c.args, c.mod === 'shelljs' ? 'shell' : 'argv', c.scope);
  return UNKNOWN;
}

/**
 * A downloader whose output is the download: curl with an address and no output file, wget told
 * to write to stdout (`-O -`, `-qO-`). `words` are the arguments when they are known.
 */
function printsDownload(prog: string, words: string[]): boolean {
  if (!words.some((w) => /^(?:https?|ftp):\/\//i.test(w))) return false;
  const p = prog.toLowerCase().replace(/\.exe$/, '');
  if (p === 'curl') return !words.some((w) => /^(?:-[a-zA-Z]*[oO]|--output|--remote-name)/.test(w));
  if (p === 'wget')
    return words.some(
      (w, i) => /^-[a-zA-Z]*O-$/.test(w) || (/^-[a-zA-Z]*O$/.test(w) && words[i + 1] === '-'),
    );
  return false;
}

/**
 * `exec(cmd, (err, stdout) => …)`: the callback's output parameters carry what the command's
 * result carries (a download printed, a credential a CLI printed, a listing of the user's files).
 */
export function processCallbackParams(c: CallbackCall): Val[] | undefined {
  if (c.callee.k !== 'api' || c.callee.mod !== 'child_process' || !/^(?:exec|execFile)$/.test(c.callee.path))
    return undefined;
  if (!c.result.t?.size) return undefined;
  const out = unknown([c.result]);
  return [UNKNOWN, out, out];
}
