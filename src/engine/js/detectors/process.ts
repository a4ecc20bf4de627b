/**
 * Process detectors: processes started (capability, programs), the command lines they run read
 * with the shell and script rules, commands received from the network, detached silent children,
 * LD_PRELOAD in a child's environment, reverse-shell shapes, and AI command-line tools started
 * or scheduled with their permission checks turned off.
 */
import { analyzeScript, foreignChangeOf, newScriptState } from '../../script-behaviour';
import type { RuleId, VariantOf } from '../../rules';
import type { ThreatType } from '../../../contract/schemas';
import { analyzeShell, shellPrograms } from '../../shell';
import { lineOf } from '../ast';
import { startsDetached } from './chains';
import { SHELL_FLAG_VALUE, isShellName, type SpawnKind } from '../models/process';
import type { Scope } from '../scope';
import { UNKNOWN, asString, deepTaints, hasDeepTaint, flatStrings, type AstNode, type Val } from '../values';
import { remoteTriggered } from './destructive';
import * as flows from './flows';
import type { Detectors } from './index';
import { foreignCommand } from './tamper';
import { aiCliBypass, commandLines } from '../../ai-cli';

/** The rule a shell rule's hit becomes when the command line is run from code. */
const FROM_CODE: Partial<Record<RuleId, RuleId & `js.exec-${string}`>> = {
  'shell.download-pipe-shell': 'js.exec-download-pipe-shell',
  'shell.download-chmod-run': 'js.exec-download-chmod-run',
  'shell.powershell-encoded': 'js.exec-powershell-encoded',
  'shell.powershell-download': 'js.exec-powershell-download',
  'shell.encoded-node-eval': 'js.exec-encoded-node-eval',
  'shell.base64-decode-run': 'js.exec-base64-decode-run',
  'shell.shell-rc-write': 'js.exec-shell-rc-write',
  'shell.agent-config-write': 'js.exec-agent-config-write',
  'shell.npm-publish': 'js.exec-npm-publish',
  'shell.ci-workflow-write': 'js.exec-ci-workflow-write',
  'shell.reverse-shell': 'js.exec-reverse-shell',
  'shell.destructive': 'js.exec-destructive',
  'shell.ld-preload': 'js.exec-ld-preload',
  'shell.registry-override': 'js.exec-registry-override',
};

/** Where an npm token is taken from: a user config's `_authToken`, the variables CI sets. */
export const NPM_TOKEN_SOURCE = /_authToken|\bNPM_TOKEN\b|\bNODE_AUTH_TOKEN\b|\.npmrc\b/;

/**
 * A publishing file that also takes a token, swaps npm's config or renames the package it
 * publishes (a version bump is what release scripts do; a new name is a worm's copy).
 */
const SPREADS = /_authToken|\.npmrc\b|--userconfig\b/;
/** The user's own npmrc (in the home folder), and a package renamed before it is published. */
const HOME_NPMRC =
  /(?:homedir\(\)|\$HOME|process\.env\.(?:HOME|USERPROFILE)|['"`]~)[^\n;]{0,80}\.npmrc|\.npmrc[^\n;]{0,40}homedir\(\)/;
// (Not git's `user.name=` / `author.name=` settings a release commit is made with.)
const RENAMES = /(?<!\b(?:user|author|committer))\.name\s*=(?!=)/;
/**
 * The user's other packages found or fetched (`npm search maintainer:<user>`, `npm access list
 * packages`, `npm pack <name>@latest`): a worm publishes them again, a release tool its project.
 */
const OTHERS_PACKAGES =
  /maintainer:|\bls-packages\b|\baccess['"`,\s]+(?:list|ls)['"`,\s]+packages\b|['"`]pack['"`]\s*,\s*`\$\{[^}`]+\}@latest`|\bnpm\s+pack\s+\$\{[^}]+\}@latest/;
/** The token CI hands a release step: a worm's only in code that publishes unprompted. */
const CI_PUBLISH_TOKEN = /\bNPM_TOKEN\b|\bNODE_AUTH_TOKEN\b/;

/** `host:port` or `scheme://host:port` given as an argument: where a child is told to connect. */
const REMOTE_ENDPOINT =
  /^(?:[a-z][\w+.-]*:\/\/)?(?:(?:\d{1,3}\.){3}\d{1,3}|(?:[a-z0-9-]+\.)+[a-z]{2,})(?::\d{2,5})(?:\/\S*)?$/i;

/** Monitoring tools a hiding process checks the process list for. */
const MONITORS =
  /\b(?:htop|btop|atop|glances|nmon|Activity Monitor|Task ?Manager|taskmgr(?:\.exe)?|procexp(?:64)?(?:\.exe)?|Process ?Explorer|Process ?Hacker|ProcessHacker|wireshark|fiddler)\b/i;

/**
 * The process list read (`ps`, `tasklist`, `Get-Process`) in a file that names monitoring tools:
 * code that pauses or hides while someone is looking (miners, RATs).
 */
export function hidesFromMonitors(d: Detectors, node: AstNode, cmd: string | undefined): void {
  if (!cmd || !/^\s*(?:ps|tasklist|pgrep|Get-Process|gps|wmic\s+process)\b/i.test(cmd)) return;
  const literals = [...d.input.text.matchAll(/(['"`/])((?:(?!\1).){2,200})\1/g)].map((m) => m[2]!);
  if (literals.some((l) => MONITORS.test(l)))
    d.threat(
      'js.hides-from-monitors',
      'malicious_code',
      node,
      `reads the process list (${cmd.trim().split(/\s+/)[0]}) and checks it for monitoring tools (hides while watched)`,
      d.install,
    );
}

/** Programs whose command line reaches the network (a DNS name or URL in it is a request). */
const NETWORK_PROGRAM =
  /^(?:curl|wget|nc|ncat|netcat|socat|ping|ping6|nslookup|dig|host|drill|ssh|scp|sftp|ftp|tftp|telnet|iwr|irm|invoke-webrequest|invoke-restmethod)(?:\.exe)?$/i;

/**
 * What a started program's command line is made of: the command and its argument list, and the
 * variables of the options' `env` that the command line names (`curl -d "$DATA"`), and its `input`
 * (its standard input). The rest of
 * the options (a working folder, the environment handed down whole) is not on the line: the
 * program does not send it.
 */
function commandLineValues(cmd: string | undefined, args: Val[], kind: SpawnKind): Val[] {
  const out = [args[0] ?? UNKNOWN];
  if (kind !== 'shell' && args[1]?.k === 'arr') out.push(args[1]);
  const opts = [args[1], args[2]].find((a) => a?.k === 'obj');
  // What the program reads on its standard input (`curl --data-binary @-`, `nc host 443`).
  const input = opts?.k === 'obj' ? opts.props.get('input') : undefined;
  if (input) out.push(input);
  const env = opts?.k === 'obj' ? opts.props.get('env') : undefined;
  const line = `${cmd ?? ''} ${args[1]?.k === 'arr' ? flatStrings(args[1]).join(' ') : ''}`;
  if (env?.k === 'obj')
    for (const m of line.matchAll(/\$\{?([A-Za-z_]\w*)\}?|%([A-Za-z_]\w*)%|\$env:([A-Za-z_]\w*)/g)) {
      const v = env.props.get(m[1] ?? m[2] ?? m[3] ?? '');
      if (v) out.push(v);
    }
  return out;
}

/** A process started: capability, programs, and the rules over its command line and options. */
export function spawn(
  d: Detectors,
  node: AstNode,
  cmd: string | undefined,
  args: Val[],
  kind: SpawnKind,
  scope: Scope,
): void {
  d.caps.spawns = true;
  // `node $npm_execpath …` (npm's own CLI script, run by Node as npm runs itself): the npm command.
  const argv0 = args[1]?.k === 'arr' ? args[1].items[0] : undefined;
  if (
    kind === 'argv' &&
    cmd !== undefined &&
    /^node(?:\.exe)?$/i.test(cmd.split(/[\\/]/).pop() ?? '') &&
    argv0?.k === 'str' &&
    /^\$npm_execpath$/i.test(argv0.v)
  ) {
    cmd = 'npm';
    args = [
      { k: 'str', v: 'npm' },
      { k: 'arr', items: (args[1] as Val & { k: 'arr' }).items.slice(1) },
      ...args.slice(2),
    ];
  }
  let programs: string[] = [];
  // A network program given data the code computed (`ping ${hex(hostname)}.host`, `curl -d ${env}`):
  // the command line itself carries the data out.
  const first = (cmd ?? '').trim().split(/\s+/)[0]?.split(/[\\/]/).pop() ?? '';
  if (NETWORK_PROGRAM.test(first))
    flows.sink(d, node, `${first} command`, commandLineValues(cmd, args, kind), scope);
  if (cmd !== undefined) {
    if (kind === 'shell') programs = shellPrograms(cmd.replace(/\$\{…\}/g, '%'));
    else programs = [cmd];
    // An interactive shell: a shell program started with no command or script to run (its
    // input comes from whoever holds its stdin).
    const argv =
      args[1]?.k === 'arr'
        ? flatStrings(args[1])
        : args[1] === undefined || args[1].k === 'obj'
          ? []
          : undefined;
    if (
      kind === 'argv' &&
      isShellName(cmd.split(/[\\/]/).pop() ?? '') &&
      argv?.every(
        (a) =>
          /^-(?:i|l|s|-login|-norc|NoLogo|NoProfile|NoExit|NonInteractive|WindowStyle|w|ExecutionPolicy|ep)$/i.test(
            a,
          ) ||
          SHELL_FLAG_VALUE.test(a) ||
          a === '/Q',
      )
    )
      d.facts.interactiveShell ??= lineOf(node);
    for (const p of programs) if (!p.includes('${')) d.caps.addCommand(p);
    // An argument list is one word per item: an item holding spaces or a pipe (`-c 'iwr … | iex'`)
    // is quoted so the command line reads as the program received it (unless a shell joins them).
    const argvShell = args.some(
      (a) =>
        a?.k === 'obj' && a.props.get('shell')?.k === 'bool' && (a.props.get('shell') as { v: boolean }).v,
    );
    const full =
      kind === 'argv' && args[1]?.k === 'arr'
        ? `${cmd} ${flatStrings(args[1])
            // A word not known (a temporary folder's path) still holds its place in the command.
            .map((w, i) => (w === '' && args[1]?.k === 'arr' && args[1].items[i]?.k !== 'str' ? '${…}' : w))
            .map((w) =>
              argvShell || !/[\s|;&<>"']/.test(w)
                ? w
                : !w.includes("'")
                  ? `'${w}'`
                  : !w.includes('"')
                    ? `"${w}"`
                    : w,
            )
            .join(' ')}`
        : cmd;
    // A path the code computed, written into the command (`rm -rf "${dir}"/*`), read by what the
    // value is known to be: a folder outside the package (`..` climbed from __dirname).
    const placed =
      /\$\{…\}/.test(full) && hasDeepTaint(args[0], 'outside_pkg') ? full.replace(/\$\{…\}/g, '../..') : full;
    // Recursive deletion of the user's files through a shell (`rm -rf ~/…`, `rd /s /q C:\\`).
    const wipe = analyzeScript(
      placed,
      /^(?:rd|rmdir|del|erase)\b/i.test(placed.trim()) ? 'batch' : 'sh',
      d.installTime,
    ).find((h) => h.rule === 'script.destructive');
    if (
      d.remoteGate > 0 &&
      (wipe ||
        /\brm\s+-[a-z]*r[a-z]*\s+(?:-[a-z]+\s+)*(?:\.\/?\*?|\*)(?:\s|$)|\b(?:rd|rmdir)\s+\/s\b[^\n]*\s\.\\?(?:\s|$)|\bdel\s+(?:\/[a-z]\s+)*[^\n]*\*/i.test(
          full,
        ))
    )
      remoteTriggered(
        d,
        node,
        `runs \`${full.slice(0, 60)}\` on ${wipe ? 'files outside the package' : 'the working directory'}`,
      );
    // Scripts decoded inside the command line (`echo <base64> | base64 -d | python3`).
    // and the command behaviours a line rule does not see: miners, persistence, fingerprint or
    // credentials sent, capture services.
    // The commands a file runs share one script state: a download by one, `chmod +x` by the
    // next and the run by a third (a table of steps spawned in a loop) are one download-execute.
    d.spawnedScript ??= newScriptState();
    // A script the code wrote, run by this command (`powershell -File <tmp>.ps1`): read whole.
    for (const [name, script] of d.writtenScripts) {
      const runs = name.startsWith('*.')
        ? new RegExp(`\\${name.slice(1)}\\b`, 'i').test(full)
        : full.includes(name);
      if (!runs) continue;
      d.writtenScripts.delete(name);
      const hits: {
        rule: RuleId;
        threat_type: ThreatType;
        variant?: VariantOf<RuleId>;
        steps?: number;
        message: string;
      }[] = [
        ...analyzeScript(script.text, script.dialect, d.installTime, d.spawnedScript),
        ...(script.dialect === 'python' ? [] : analyzeShell(script.text, d.installTime)),
      ];
      for (const h of hits)
        d.threat(
          h.rule,
          h.threat_type === 'install_script_injection' && !d.installTime ? 'malicious_code' : h.threat_type,
          node,
          `runs a script it wrote (${name}) that ${h.message}`,
          { variant: h.variant, steps: h.steps },
        );
    }
    // Started detached with its output discarded: the JavaScript form of a shell's `cmd &`.
    const detached = startsDetached(args);
    for (const h of analyzeScript(full, 'sh', d.installTime, d.spawnedScript)) {
      // A reverse shell found inside inline code the command runs (`python3 -c "…socket…pty…"`).
      if (h.rule === 'shell.reverse-shell') {
        d.threat(
          'js.exec-reverse-shell',
          'malicious_code',
          node,
          `runs a command that ${h.message}`,
          d.install,
        );
        continue;
      }
      if (
        !h.message.startsWith('runs an encoded') &&
        !/^script\.(?:crypto-miner|persistence|fingerprint-exfil|exfil-host|secret-file-exfil|env-exfil|git-push|download-execute)$/.test(
          h.rule,
        )
      )
        continue;
      // (What `ssh host '…'` is given runs on the host the user names: its start-up files and
      // authorized keys are that machine's, as ssh-copy-id does.)
      if (h.rule === 'script.persistence' && /^(?:\S*[\\/])?(?:ssh|ssh\.exe|mosh)$/i.test(cmd ?? ''))
        continue;
      d.threat(
        h.rule,
        h.threat_type === 'install_script_injection' && !d.installTime ? 'malicious_code' : h.threat_type,
        node,
        `runs a command that ${h.message}${detached && h.rule === 'script.download-execute' ? ' (detached, in the background)' : ''}`,
        {
          // Persistence set up in a function nobody calls at install or load (a launch-at-login
          // helper, a CLI's `service install`) is what its caller asks for.
          variant: h.variant ?? (h.rule === 'script.persistence' && d.dormant > 0 ? 'onRequest' : undefined),
          steps: (h.steps ?? 0) + (detached && h.rule === 'script.download-execute' ? 1 : 0),
        },
      );
    }
    if (d.unprompted) {
      const changed = foreignChangeOf(placed);
      if (changed)
        foreignCommand(
          d,
          node,
          `${changed.removes ? 'deletes or moves' : 'writes'} ${changed.path.slice(0, 60)}`,
        );
    }
    if (wipe && !analyzeShell(placed, d.installTime).some((h) => h.rule === 'shell.destructive'))
      d.threat(
        'js.exec-destructive-user-data',
        'malicious_code',
        node,
        `runs a command that ${wipe.message}`,
        d.install,
      );
    for (const hit of analyzeShell(full, d.installTime)) {
      const rule = FROM_CODE[hit.rule];
      if (!rule) continue; // shell.ai-cli-unsafe: the flow-based rule below decides
      const type =
        hit.threat_type === 'install_script_injection' && !d.installTime ? 'malicious_code' : hit.threat_type;
      // `npm publish` outside npm install is what release scripts do; a worm also takes a token,
      // rewrites the manifest (a new name or version) or points npm at another config.
      // …or publishes from folders it listed (other projects of the user), not its own.
      const cwdOpt = (args.find((a) => a?.k === 'obj') as (Val & { k: 'obj' }) | undefined)?.props.get('cwd');
      const cwdTaints = cwdOpt ? deepTaints(cwdOpt) : undefined;
      // (Folders listed under the project npm runs in are its workspaces: what a monorepo's release
      // tool publishes.)
      const elsewhere =
        !!cwdTaints &&
        ((cwdTaints.has('user_listing') &&
          (!cwdTaints.has('cwd') ||
            /(?:^|[\\/])(?:\.\.|~)(?:[\\/]|$)|[\\/](?:home|Users)[\\/]/.test(asString(cwdOpt) ?? ''))) ||
          cwdTaints.has('outside_pkg'));
      const level =
        rule === 'js.exec-npm-publish' && !d.installTime
          ? // Publishing from folders it listed, the user's own npmrc read, the package renamed;
            // or, in code that runs unprompted (at load), a token taken or an npmrc written. (A
            // release script its user runs, and a GitHub Action, take a token and write a
            // temporary npmrc to do their job.)
            elsewhere ||
            HOME_NPMRC.test(d.input.text) ||
            RENAMES.test(d.input.text) ||
            OTHERS_PACKAGES.test(d.input.text) ||
            (!!d.unprompted &&
              !d.input.modules?.ciAction &&
              (SPREADS.test(d.input.text) || CI_PUBLISH_TOKEN.test(d.input.text)))
            ? 'spreads'
            : undefined
          : d.install;
      d.threat(rule, type, node, `runs a command that ${hit.message}`, level);
    }
  }
  d.capability(
    'process',
    'js.spawn',
    node,
    `starts a child process${programs.length ? ` (${programs.join(', ')})` : ''}`,
  );
  // An AI command-line tool reached with its permission checks turned off, wherever the
  // program name and the flags came from (constants, arrays, loops, helpers, other files).
  const argvOpts = args.find((a) => a?.k === 'obj') as (Val & { k: 'obj' }) | undefined;
  const useShell =
    kind === 'shell' ||
    (argvOpts &&
      argvOpts.props.get('shell')?.k === 'bool' &&
      (argvOpts.props.get('shell') as { v: boolean }).v);
  const lines: string[][] =
    kind === 'shell'
      ? commandLines(cmd ?? (args[0] ? flatStrings(args[0]).join(' ') : ''))
      : kind === 'argv'
        ? useShell
          ? commandLines([cmd ?? '', ...(args[1]?.k === 'arr' ? flatStrings(args[1]) : [])].join(' '))
          : [[cmd ?? '', ...(args[1]?.k === 'arr' ? flatStrings(args[1]) : [])]]
        : [];
  aiCliCheck(d, node, lines, 'runs');
  // A command line received from the network (`fetch(u).then(r => r.text()).then(execSync)`).
  // Only when the program or the whole script is the downloaded data, not a parameter of a
  // fixed command (`npm i -g x@${latest}` is an update, not download-and-execute).
  const fromNet = (v: Val | undefined) =>
    !!v && hasDeepTaint(v, 'network_data') && /^(?:\$\{…\})?$/.test((asString(v) ?? '').slice(0, 6));
  const inlineScript =
    kind === 'argv' &&
    /^(?:sh|bash|zsh|dash|cmd|powershell|pwsh|node|python3?|perl|ruby)(?:\.exe)?$/i.test(
      (cmd ?? '').split(/[\\/]/).pop() ?? '',
    ) &&
    args[1]?.k === 'arr' &&
    args[1].items.some(
      (v, i, all) =>
        i > 0 &&
        /^(?:-c|\/c|-e|--eval|-Command|-p|-EncodedCommand|-enc|-en|-ec)$/i.test(asString(all[i - 1]) ?? '') &&
        // The inline script is the download, or the download is one of its statements
        // (`$ErrorActionPreference='SilentlyContinue';${script}`).
        (fromNet(v) ||
          (hasDeepTaint(v, 'network_data') && /(?:^|[;\n&|{]\s*)\$\{…\}/.test(asString(v) ?? ''))),
    );
  if ((kind !== 'fork' && fromNet(args[0])) || inlineScript) {
    d.threat(
      'js.exec-network-data',
      d.installTime ? 'install_script_injection' : 'malicious_code',
      node,
      'runs a command received from the network (download and execute)',
      d.install,
    );
  }
  const opts = argvOpts;
  if (opts) {
    const detached = opts.props.get('detached');
    const stdio = opts.props.get('stdio');
    const ignored =
      asString(stdio) === 'ignore' ||
      (stdio?.k === 'arr' && stdio.items.length > 0 && stdio.items.every((i) => asString(i) === 'ignore'));
    if (detached?.k === 'bool' && detached.v && ignored) {
      // Told where to connect (`-o pool.example:3333`, `--url host:port`): a miner or a tunnel.
      const argv = args[1]?.k === 'arr' ? flatStrings(args[1]) : [];
      const endpoint = argv.find(
        (a) =>
          REMOTE_ENDPOINT.test(a) &&
          !/^(?:[a-z][\w+.-]*:\/\/)?(?:127\.|0\.0\.0\.0|10\.|192\.168\.|localhost)/i.test(a),
      );
      d.threat(
        'js.silent-detached-process',
        'malicious_code',
        node,
        endpoint
          ? `starts a detached, silenced process told to connect to ${endpoint.slice(0, 60)} (a miner or a tunnel)`
          : 'starts a detached child process with all output discarded (keeps running unseen)',
        endpoint ? (d.installTime ? 'remoteEndpointInstall' : 'remoteEndpoint') : d.install,
      );
    }
    const env = opts.props.get('env');
    if (
      env?.k === 'obj' &&
      [...env.props.keys()].some((k) => k === 'LD_PRELOAD' || k === 'DYLD_INSERT_LIBRARIES')
    ) {
      d.threat('js.ld-preload-env', 'malicious_code', node, 'starts a process with LD_PRELOAD set');
    }
  }
}

/** `process.binding('spawn_sync').spawn(…)`. */
export function internalSpawn(d: Detectors, node: AstNode, file: string | undefined): void {
  // A shell or interpreter started this way runs whatever command it is given, past every hook.
  const shell =
    file !== undefined &&
    /(?:^|[\\/])(?:ba|z|da|k)?sh(?:\.exe)?$|(?:^|[\\/])(?:cmd|powershell|pwsh)(?:\.exe)?$/i.test(file);
  d.threat(
    'js.internal-spawn-binding',
    'malicious_code',
    node,
    `starts ${shell ? `a shell (${file})` : 'a process'} through Node's internal spawn binding instead of child_process (evades hooks)`,
    shell ? 'shell' : undefined,
  );
}

/** Reports an AI CLI run with a permission-bypass flag (install_script_injection, critical). */
export function aiCliCheck(d: Detectors, node: AstNode, lines: string[][], verb: 'runs' | 'writes'): void {
  const hit = aiCliBypass(lines);
  if (!hit) return;
  d.threat(
    'js.ai-cli-bypass',
    'install_script_injection',
    node,
    `${verb === 'runs' ? 'runs' : 'writes a command that runs'} the AI command-line tool ${hit.cli} with ${hit.flag} (its permission checks turned off)`,
    d.installTime ? 'install' : verb === 'runs' ? undefined : 'written',
  );
}

/**
 * Data received from the network fed to the standard input of a shell or interpreter started
 * with no script (`sock.pipe(sh.stdin)`, `ws.on('message', m => sh.stdin.write(m))`): the remote
 * end types the commands. The same theft of control as running a downloaded command line.
 */
export function shellInput(d: Detectors, node: AstNode, data: Val[]): void {
  // A shell for the clients of a WebSocket server the package runs is a web terminal, its purpose;
  // a shell fed from a connection the package makes is a reverse shell.
  if (!data.some((v) => hasDeepTaint(v, 'network_data') && !hasDeepTaint(v, 'inbound'))) return;
  d.threat(
    'js.exec-network-data',
    d.installTime ? 'install_script_injection' : 'malicious_code',
    node,
    "feeds what a network connection receives into a shell's standard input (remote commands)",
    d.install,
  );
}
