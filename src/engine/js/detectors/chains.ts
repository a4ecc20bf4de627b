/**
 * Chains that span calls: a file written and then run (`fs.writeFileSync(p, data)` then
 * `spawn(p)`, `execFile('python3', [p])`, `require(p)`). Whatever the family — dropper, miner,
 * loader, persistence — writing a program and starting it is the step that turns data into code.
 * It is a threat when the written data came from the network or a decoder, or when the file
 * fetches something and then runs what it wrote from a hidden, temporary or interpreter-run path;
 * installers that download a tool and check its checksum before running it stay quiet.
 */
import { tmuxCommand } from '../../script-behaviour';
import { lineOf } from '../ast';
import { asString, deepTaints, flatStrings, type AstNode, type Val } from '../values';
import type { JsFileFacts } from '../analyze';
import type { Detectors } from './index';

export interface WrittenFile {
  readonly path: string;
  readonly line: number;
  /** The data written came from the network, or from a decoder. */
  readonly fromNetwork: boolean;
  readonly decoded: boolean;
  /** A folder an archive was unpacked into: running any file under it runs what was written. */
  readonly dir?: boolean;
  /** The code that wrote it checks a checksum or signature (a helper module's installer). */
  readonly verified?: boolean;
}

const INTERPRETER =
  /^(?:node|python[23]?|py|sh|bash|zsh|cscript|wscript|powershell|pwsh|perl|ruby|osascript|mshta|rundll32|regsvr32)(?:\.exe)?$/i;

/**
 * Programs that start the program named after their own options (`nice -n 19 ./x`, `sudo tar …`,
 * `screen -dmS name ./x`, `tmux new -d 'x --y'`, `systemd-run --user ./x`, `busybox nohup ./x`,
 * `cmd /c start "" x.exe`).
 */
const WRAPPER =
  /^(?:nice|nohup|setsid|timeout|ionice|taskset|stdbuf|env|sudo|doas|caffeinate|chrt|screen|tmux|systemd-run|busybox|start|cmd)(?:\.exe)?$/i;

/** Options of those wrappers that take a value (`screen -S name`, `systemd-run -p X`). */
const WRAPPER_VALUE_OPTION = /^-[a-zA-Z]*S$|^-[pu]$|^--(?:unit|property|description|slice|user-unit)$/;

/** A wrapper's argv without the wrapper: its options (and their values) skipped, the program first. */
function unwrapped(argv: string[]): string[] {
  let i = 0;
  while (i < argv.length && i < 12) {
    const a = argv[i]!;
    if (WRAPPER_VALUE_OPTION.test(a)) i += 2;
    // (Options, numbers, `VAR=value`, `cmd`'s `/c`, `start`'s window title `""`.)
    else if (/^-/.test(a) || /^\d+[smhd]?$/.test(a) || /^\w+=/.test(a) || /^\/[a-z]$/i.test(a) || a === '')
      i++;
    else break;
  }
  return argv.slice(i);
}

function hiddenOrTemp(p: string): boolean {
  const n = p.replace(/\\/g, '/');
  return (
    /(?:^|\/)\.[^/.][^/]*$/.test(n) ||
    /(?:^|\/)(?:tmp|temp|var\/tmp|AppData\/Local\/Temp)\//i.test(n) ||
    /%TEMP%|\$TMPDIR|os\.tmpdir/i.test(n)
  );
}

/** Calls that write their second argument with what the first held. */
const COPIES = /^(?:copyFile|copyFileSync|copy|copySync|cp|cpSync|rename|renameSync|move|moveSync)$/;

/**
 * A file written: remembered so that running it later in the file completes the chain. A file
 * this code already started by that path completes it too (`if (exists(bin)) run(bin); else
 * download(bin).then(() => run(bin))`: the run is the same call, walked once, before the write).
 */
function wrote(d: Detectors, node: AstNode, w: WrittenFile): void {
  d.written.push(w);
  const earlier = d.facts.started?.find((s) => s.line !== w.line && namesDropped(s.values, w));
  // (Read at the file's end, when a checksum checked after the write is known: see runEarlier.)
  if (earlier && d.earlierRuns.length < 20)
    d.earlierRuns.push({
      node,
      w,
      how: `runs it (line ${earlier.line})`,
      detached: earlier.detached,
      ...context(d),
    });
}

/** Files written that the code had already started by that path (see wrote), at the file's end. */
export function runEarlier(d: Detectors): void {
  for (const r of d.earlierRuns.splice(0)) chain(d, r.node, r.w, r.how, !!r.detached, r);
}

export interface EarlierRun extends ChainContext {
  node: AstNode;
  w: WrittenFile;
  how: string;
  detached?: boolean;
}

interface ChainContext {
  installTime: boolean;
  variant: 'install' | 'load' | undefined;
}

function context(d: Detectors): ChainContext {
  return { installTime: d.installTime, variant: d.install ?? (d.unprompted === 'load' ? 'load' : undefined) };
}

export function written(
  d: Detectors,
  node: AstNode,
  method: string,
  p: string | undefined,
  args: Val[],
): void {
  if (
    !p ||
    p === '${…}' ||
    (!/^(?:writeFile|writeFileSync|appendFile|appendFileSync|outputFile|outputFileSync|createWriteStream|extract)$/.test(
      method,
    ) &&
      !COPIES.test(method))
  )
    return;
  // A copy or a move writes its destination with what its source held (a dropped file copied
  // elsewhere, a download written to `x.part` and renamed into place).
  if (COPIES.test(method)) {
    const dest = asString(args[1]) ?? (args[1]?.k === 'str' ? args[1].v : undefined);
    const source = match(d, [p]);
    // (Only a file this code wrote: a move of anything else is no write of data.)
    if (dest && dest !== '${…}' && (source || /^copyFile(?:Sync)?$/.test(method)))
      wrote(d, node, {
        path: dest,
        line: lineOf(node),
        fromNetwork: !!source?.fromNetwork,
        decoded: !!source?.decoded,
        dir: false,
        verified: !!source?.verified || d.verifiesIntegrity,
      });
    return;
  }
  const dir = method === 'extract';
  // An unpacked archive's data is not followed (it streams in from a pipeline): only its place.
  const taints = dir ? new Set() : deepTaints(args[1]);
  wrote(d, node, {
    path: p,
    line: lineOf(node),
    fromNetwork: taints.has('network_data'),
    decoded: taints.has('decoded'),
    dir,
    verified: d.verifiesIntegrity,
  });
}

/** The last write to a file that `values` start: what the file holds when it runs. */
function match(d: Detectors, values: string[]): WrittenFile | undefined {
  return d.written.findLast((w) => namesDropped(values, w));
}

/** Files written that a later step may run: hidden or temporary places, downloaded or decoded data. */
export function droppedFiles(written: readonly WrittenFile[]): NonNullable<JsFileFacts['dropped']> {
  return written
    .filter((w) => w.fromNetwork || w.decoded || hiddenOrTemp(w.path))
    .slice(0, 20)
    .map((w) => ({ path: w.path, line: w.line, fromNetwork: w.fromNetwork || w.decoded, dir: w.dir }));
}

/** Whether a started value names a dropped file (the same matching as within a file). */
export function namesDropped(values: readonly string[], w: { path: string; dir?: boolean }): boolean {
  return values.some(
    (v) =>
      v === w.path ||
      (v.length > 6 && !v.includes('${') && (v.endsWith(w.path) || w.path.endsWith(v))) ||
      (!!w.dir && w.path.length > 6 && v.startsWith(`${w.path.replace(/[\\/]+$/, '')}/`)),
  );
}

/** A process started: does it run a file this file wrote? */
/** An archive unpacked by `tar` or `unzip` run as a process: the archive and the folder it fills. */
function unpacks(program: string, argv: string[]): { archive: string; dir: string } | undefined {
  const name = program.split(/[\\/]/).pop() ?? '';
  let archive: string | undefined;
  let dir: string | undefined;
  if (/^(?:bsd)?tar(?:\.exe)?$/i.test(name)) {
    if (!argv.some((a) => /^-[a-zA-Z]*x|^--extract$|^x[a-zA-Z]*$/.test(a))) return undefined;
    for (let i = 0; i < argv.length; i++) {
      const a = argv[i]!;
      if (/^-[a-zA-Z]*f$|^[a-zA-Z]*x[a-zA-Z]*f$/.test(a) || a === '--file') archive = argv[i + 1];
      else if (a.startsWith('--file=')) archive = a.slice(7);
      else if (a === '-C' || a === '--directory') dir = argv[i + 1];
      else if (a.startsWith('--directory=')) dir = a.slice(12);
    }
  } else if (/^unzip(?:\.exe)?$/i.test(name)) {
    archive = argv.find((a) => !a.startsWith('-'));
    const at = argv.indexOf('-d');
    dir = at >= 0 ? argv[at + 1] : undefined;
  }
  return archive && dir && !dir.includes('${…}') ? { archive, dir } : undefined;
}

export function runsWritten(d: Detectors, node: AstNode, cmd: string | undefined, args: Val[]): void {
  // (Words of a command line may be quoted: `"python3" "${f}"`.)
  const bare = (w: string) => w.replace(/^["']|["']$/g, '');
  const words = cmd ? cmd.trim().split(/\s+/).slice(0, 40).map(bare) : [];
  let argv = args[1]?.k === 'arr' ? flatStrings(args[1]) : words.slice(1);
  let program = words[0] ?? '';
  // (`spawn('nice', ['-n', '19', bin])`: the program a wrapper starts, with its own arguments.)
  for (let n = 0; n < 3 && WRAPPER.test(program.split(/[\\/]/).pop() ?? ''); n++) {
    // (`tmux new-session -d -s name 'bin --x'`: past the subcommand and the options that take a
    // value, one shell text whose first word is the program.)
    const tmux = /^tmux$/i.test(program.split(/[\\/]/).pop() ?? '');
    const rest = tmux ? (tmuxCommand(argv)?.command ?? []) : unwrapped(argv);
    const first = bare(rest[0] ?? '').trim();
    const split = tmux && /\s/.test(first) ? first.split(/\s+/) : [first];
    program = split[0]!;
    argv = [...split.slice(1), ...rest.slice(1)];
  }
  const values = [
    program,
    ...(INTERPRETER.test(program.split(/[\\/]/).pop() ?? '') ? argv : []),
    ...words.slice(0, 4),
  ].filter(Boolean);
  // `tar -xzf <download> -C <dir>` / `unzip <download> -d <dir>` run as a process: the folder
  // holds what was downloaded, as an archive module's extract makes it.
  const unpacked = unpacks(program, argv);
  if (unpacked) {
    const archive = match(d, [unpacked.archive]);
    if (archive && (archive.fromNetwork || archive.decoded))
      d.written.push({ ...archive, path: unpacked.dir, line: lineOf(node), dir: true });
  }
  const detached =
    startsDetached(args) ||
    BACKGROUNDED.test(
      [program, ...(cmd ? [cmd] : []), ...(args[1]?.k === 'arr' ? flatStrings(args[1]) : [])].join(' '),
    );
  // Kept for chains across files (a file dropped by one install step, run by another).
  if (values.length && (d.facts.started ??= []).length < 20)
    d.facts.started.push({ values, line: lineOf(node), detached });
  if (!d.written.length) return;
  const target = match(d, values);
  if (target)
    chain(d, node, target, target.dir ? 'runs a file from it' : `runs ${target.path.slice(0, 80)}`, detached);
}

/**
 * A command line that leaves its program running on its own: `nohup`, `setsid`, `disown`, a
 * trailing `&` (not `&&`, `2>&1` or `&>`), Windows' `start /b`.
 */
const BACKGROUNDED =
  /(?:^|[\s;&|(/])(?:nohup|setsid|disown)\b|(?<![&|>])&(?![&>])\s*(?:$|;|\)|\bdisown\b|\bexit\b)|\bstart\s+(?:""\s+)?\/b\b/i;

/** Started on its own, cut off from the caller: `{ detached: true, stdio: 'ignore' }` among the arguments. */
export function startsDetached(args: readonly (Val | undefined)[]): boolean {
  return args.some((a) => {
    const v = a?.k === 'obj' ? a.props.get('detached') : undefined;
    return v?.k === 'bool' && v.v;
  });
}

/** A module loaded: is it a file this file wrote? */
export function loadsWritten(d: Detectors, node: AstNode, spec: string): void {
  // An absolute or home/temp path loaded as code is kept for chains across install hooks too.
  if (/^(?:\/|[A-Za-z]:[\\/]|\$|~)/.test(spec) && (d.facts.started ??= []).length < 20)
    d.facts.started.push({ values: [spec], line: lineOf(node) });
  const target = d.written.length ? match(d, [spec]) : undefined;
  if (target) chain(d, node, target, `loads ${target.path.slice(0, 80)} as code`);
}

function chain(
  d: Detectors,
  node: AstNode,
  w: WrittenFile,
  how: string,
  detached = false,
  at = context(d),
): void {
  // A decoded payload run is an obfuscated loader whenever it runs; a download run at install
  // time is an install script that injects code.
  const type =
    at.installTime && !(w.decoded && !w.fromNetwork) ? 'install_script_injection' : 'malicious_code';
  // An installer that checks what it downloaded against a checksum before running it is a
  // binary installer, not a dropper.
  const verified = d.verifiesIntegrity || !!w.verified;
  if (w.decoded || (w.fromNetwork && !verified)) {
    // Run by code a user calls, from a bare IP address over plain HTTP: a dropper's way, not an
    // installer's (as for a script's download and run); higher still when started detached. (A
    // project's own HTTP mirror, or a detached daemon, alone are not.)
    const steps = w.fromNetwork && d.plainIpRequest ? (detached ? 2 : 1) : 0;
    d.threat(
      'js.drop-and-run',
      type,
      node,
      `writes ${w.fromNetwork ? 'data it downloaded' : 'decoded data'} to a file (line ${w.line}) and ${how}${detached ? ' in the background' : ''}`,
      // Run when the package is loaded, unprompted, as much as when it installs.
      at.variant ?? { steps },
    );
    return;
  }
  // The data is not followed, but the file fetched something, wrote it somewhere hidden or
  // temporary, and ran it, with no checksum in sight: a dropper's order of steps.
  if (d.networkInFile && hiddenOrTemp(w.path) && !verified)
    d.threat(
      'js.drop-and-run',
      type,
      node,
      `downloads, ${w.dir ? 'unpacks an archive into' : 'writes'} ${w.path.slice(0, 60)} (line ${w.line}) and ${how}`,
      at.installTime ? 'installUnfollowed' : 'unfollowed',
    );
}
