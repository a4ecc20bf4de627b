/**
 * Rules for shell command strings: lifecycle scripts and strings passed to exec().
 * Pure functions over text; the caller decides whether the command runs at install time.
 */
import { posix } from 'node:path';
import { aiCliBypass, commandLines } from './ai-cli';
import { escapeRegExp } from './text';
import type { ThreatType } from '../contract/schemas';
import { confidence, type RuleId } from './rules';

export interface ShellHit {
  rule: RuleId;
  threat_type: ThreatType;
  /** From the catalogue: the rule's `install` variant when the command runs at install time. */
  confidence: number;
  variant?: 'install';
  message: string;
}

interface ShellRule {
  rule: RuleId;
  re?: RegExp;
  /**
   * Shapes of `a … b … c` on one line, tested in order from the first `a` (see inOrder): a
   * regular expression `a[^\n]*b[^\n]*c` backtracks over every `a` of a line, which a line of
   * thousands of them makes quadratic or worse.
   */
  seq?: RegExp[][];
  threat_type: ThreatType;
  message: string;
}

/** A decoding command: `base64 -d` (and its spellings), `xxd -r`. */
const DECODER = /\bbase64\s+(?:-\w+\s+)*(?:-d|--decode|-D|-di|-id)\b|\bxxd\s+(?:-\w+\s+)*-r\w*\b/i;

const RULES: ShellRule[] = [
  {
    rule: 'shell.download-pipe-shell',
    // (Quoted words may hold `&` or `;`: a URL's query. The distance to the pipe is bounded, so a
    // line of many `curl` words is not read quadratically.)
    // Also a download given to a shell as its script: `sh -c "$(curl …)"`, `bash <(wget -O- …)`,
    // `eval "$(curl …)"`, `source <(curl …)`.
    re: /\b(?:curl|wget|iwr|invoke-webrequest)\b(?:"[^"\n]{0,2000}"|'[^'\n]{0,2000}'|[^|;&\n"']){0,2000}\|\s*(?:sudo\s+(?:-[A-Za-z]+\s+)*)?(?:\/[\w/]*\/)?(?:ba|z|da)?sh\b|\b(?:curl|wget)\b(?:"[^"\n]{0,2000}"|'[^'\n]{0,2000}'|[^|;&\n"']){0,2000}\|\s*(?:sudo\s+(?:-[A-Za-z]+\s+)*)?(?:\/[\w/]*\/)?(?:node|python[23]?(?:\.\d+)?|perl|ruby|php)\b|\b(?:(?:ba|z|da)?sh\s+-c|eval)\s+["']?\$\(\s*(?:curl|wget)\b|\b(?:(?:ba|z|da)?sh|source|\.)\s+<\(\s*(?:curl|wget)\b/i,
    threat_type: 'install_script_injection',
    message: 'downloads code and pipes it into an interpreter',
  },
  {
    rule: 'shell.download-chmod-run',
    seq: [[/\b(?:curl|wget)\b/i, /(?:&&|;)\s*chmod\s+(?:\+x|[0-7]*7[0-7]*)\b/i]],
    threat_type: 'install_script_injection',
    message: 'downloads a file and makes it executable',
  },
  {
    rule: 'shell.powershell-encoded',
    seq: [[/\bpowershell(?:\.exe)?\b/i, /\s-(?:e|en|enc|encodedcommand)\s+[A-Za-z0-9+/=]{16,}/i]],
    threat_type: 'install_script_injection',
    message: 'runs an encoded PowerShell command',
  },
  {
    rule: 'shell.powershell-download',
    seq: [
      [/\b(?:iex|invoke-expression)\b/i, /downloadstring|invoke-webrequest|iwr|net\.webclient/i],
      [/downloadstring|net\.webclient/i, /\b(?:iex|invoke-expression)\b/i],
      [/\b(?:iwr|irm|invoke-webrequest|invoke-restmethod)\b/i, /\|\s*(?:iex|invoke-expression)\b/i],
    ],
    threat_type: 'install_script_injection',
    message: 'downloads and evaluates a PowerShell script',
  },
  {
    rule: 'shell.encoded-node-eval',
    seq: [
      [
        /\bnode\b/i,
        /\s-(?:e|p|-eval|-print)\b/i,
        /base64|Buffer\.from|atob|fromCharCode|\\x[0-9a-f]{2}|eval\s*\(/i,
      ],
    ],
    threat_type: 'install_script_injection',
    message: 'runs inline Node.js code built from encoded data',
  },
  {
    rule: 'shell.base64-decode-run',
    // Piped into an interpreter (`base64 -d | sh`, `xxd -r -p | bash`), or given to a shell as its
    // script (`eval "$(… | base64 -d)"`, `sh -c "$(…)"`, `bash <(…)`, `source <(…)`).
    re: /echo\s+(?:-n\s+)?["']?[A-Za-z0-9+/=]{40,}["']?\s*\|\s*base64/i,
    seq: [
      [
        DECODER,
        /\|\s*(?:sudo\s+|nohup\s+|(?:\/[\w/]*\/)?env\s+)?(?:\/[\w/]*\/)?(?:(?:ba|z|da)?sh|python3?|node|perl|ruby)\b/i,
      ],
      [/(?:\beval|\b(?:ba|z|da)?sh\s+-c|\bsource)\s+["']?(?:\$\(|`)/i, DECODER],
      [/\b(?:(?:ba|z|da)?sh|source)\s+<\(/i, DECODER],
    ],
    threat_type: 'install_script_injection',
    message: 'decodes base64 (or hex) data and runs it',
  },
  {
    rule: 'shell.shell-rc-write',
    re: />>?\s*["']?(?:~|\$HOME|\$\{HOME\})\/\.(?:bashrc|bash_profile|zshrc|profile|zprofile|config\/fish\/config\.fish)\b/i,
    threat_type: 'install_script_injection',
    message: 'writes to a shell start-up file',
  },
  {
    rule: 'shell.agent-config-write',
    re: /(?:\.claude\/|\.claude\.json|\.cursor\/mcp\.json|\.vscode\/(?:tasks|settings)\.json|\.gemini\/|\.codex\/|\.continue\/|mcp_servers?\.json|claude_desktop_config\.json)/i,
    threat_type: 'install_script_injection',
    message: 'touches AI-agent or editor configuration',
  },
  {
    rule: 'shell.ai-cli-unsafe',
    re: /\bclaude\b[^\n]*--dangerously-skip-permissions|\bgemini\b[^\n]*(?:--yolo|\s-y\b)|\bq\s+chat\b[^\n]*--trust-all-tools|--trust-all-tools|\bcodex\b[^\n]*(?:--dangerously-bypass|--full-auto|--yolo)|\bcursor-agent\b[^\n]*--force/i,
    threat_type: 'install_script_injection',
    message: 'invokes an AI command-line tool with its permission checks turned off',
  },
  {
    rule: 'shell.npm-publish',
    // npm's and the other registries' publish commands (extensions, crates, Python, gems, NuGet).
    re: /\b(?:npm|pnpm|yarn)\s+(?:publish|npm\s+publish)\b|\b(?:vsce|ovsx)\s+publish\b|\bcargo\s+publish\b|\btwine\s+upload\b|\bgem\s+push\b|\bpoetry\s+publish\b|\bnuget\s+push\b/i,
    threat_type: 'install_script_injection',
    message: 'publishes a package (self-propagation)',
  },
  {
    rule: 'shell.ci-workflow-write',
    re: /\.github\/workflows\/[^\s"']*\.ya?ml/i,
    threat_type: 'install_script_injection',
    message: 'writes a CI workflow file',
  },
  {
    rule: 'shell.reverse-shell',
    // Also the classic one-liners of other interpreters: Perl and PHP sockets handed to a shell,
    // Ruby reading commands from a TCPSocket, PowerShell's TCPClient stream fed to iex.
    // (`/dev/tcp` with a shell on it: `-i`, descriptors joined to it, a descriptor opened both
    // ways, or piped to a shell; a port probe, `echo > /dev/tcp/h/p`, is not one.)
    re: /\d<>\s*["']?\/dev\/tcp\/|\bbash\s+-i\s*>&/i,
    seq: [
      [/\/dev\/tcp\//i, /\s0[<>]&|<&\s*\d|\|\s*(?:ba|z|da)?sh\b/i],
      [/\s-i\b/i, /\/dev\/tcp\//i],
      [/\bnc(?:at)?\b/i, /\s-e\s/i],
      [/\bsocat\b/i, /exec:/i],
      [/\bmkfifo\b/i, /\bnc\b/i],
      [/\bsocket\s*\(/i, /\bconnect\s*\(/i, /open\s*\(\s*STDIN|exec\s*\(\s*["']\/bin\/(?:ba)?sh/i],
      [/\bfsockopen\s*\(/i, /(?:exec|shell_exec|system|passthru|proc_open|popen)\s*\(/i],
      [/\bTCPSocket\.(?:new|open)\s*\(/i, /IO\.popen|\bexec\b|\bsystem\b|\bspawn\b|`/i],
      [/Net\.Sockets\.TCPClient\s*\(/i, /GetStream\s*\(\)/i, /\biex\b|Invoke-Expression/i],
    ],
    threat_type: 'malicious_code',
    message: 'opens a reverse shell',
  },
  {
    rule: 'shell.destructive',
    re: /\brm\s+-[a-z]*r[a-z]*f?[a-z]*\s+(?:--no-preserve-root\s+)?(?:\/\*?|~\/?\*?|\$HOME\/?\*?)(?:\s|$|["'])|\bformat\s+[a-z]:|\bmkfs(?:\.\w+)?\s+\/dev\/|\bdd\s+if=\/dev\/(?:zero|random|urandom)\s+of=\/dev\/[sh]d/i,
    threat_type: 'malicious_code',
    seq: [[/\bdel\s+\/[fsq]\b/i, /[a-z]:\\/i]],
    message: 'runs a destructive command',
  },
  {
    rule: 'shell.ld-preload',
    // rundll32 of Windows' own handlers (url.dll,FileProtocolHandler opens a URL) is not injection.
    re: /\bLD_PRELOAD\s*=|\bDYLD_INSERT_LIBRARIES\s*=|\brundll32(?:\.exe)?\s+["']?(?!(?:url|shell32|user32|zipfldr|shdocvw|ieframe|inetcpl|printui)\.(?:dll|cpl)\b)[^\s"']+/i,
    threat_type: 'malicious_code',
    message: 'injects a shared library (LD_PRELOAD / DLL loading)',
  },
  {
    rule: 'shell.registry-override',
    re: /\b(?:npm|yarn|pnpm)\s+config\s+set\s+(?:registry|npmRegistryServer)\b|--registry[=\s]+https?:\/\/|\bstrict-ssl\s+false\b|NODE_TLS_REJECT_UNAUTHORIZED\s*=\s*0|\bgit\s+config\s+(?:--global|--system)\s+url\.\S+\.insteadOf\b|\bpip3?\s+config\s+set\s+global\.(?:index-url|extra-index-url)\b/i,
    threat_type: 'social_engineering',
    message: 'points npm (or git, pip) at another registry or mirror, or turns TLS checks off',
  },
];

/** A cheap test before the word-level AI CLI reading: a flag of the kind it looks for. */
const AI_HINT =
  /--(?:dangerously|trust-all|allow-all|skip-permissions|yes-always|permission-mode|approval-mode|sandbox|yolo|full-auto|auto-approve|always-approve|force)|\s-[yfs]\b/i;

/**
 * `curl … | sh` read in one pass, quotes and padding of any length included (the line rule's
 * distance to the pipe is bounded): the command lines between unquoted separators, a download
 * piped into a shell or an interpreter.
 */
export function pipesDownloadIntoShell(cmd: string): boolean {
  if (!/\b(?:curl|wget|iwr|invoke-webrequest)\b/i.test(cmd)) return false;
  let quote = '';
  let start = 0;
  let prev: string | undefined;
  for (let i = 0; i <= cmd.length; i++) {
    const ch = cmd[i];
    if (quote) {
      if (ch === quote) quote = '';
      continue;
    }
    if (ch === '"' || ch === "'") {
      quote = ch;
      continue;
    }
    const end = i === cmd.length || ch === '\n' || ch === ';' || ch === '&' || ch === '|';
    if (!end) continue;
    const piece = cmd.slice(start, i);
    if (prev !== undefined) {
      const first = /^\s*(?:sudo\s+(?:-[A-Za-z]+\s+)*)?(?:\/[\w/]*\/)?([\w.]+)/.exec(piece)?.[1] ?? '';
      if (/^(?:ba|z|da)?sh$/i.test(first)) return true;
      if (/^(?:node|python[23]?(?:\.\d+)?|perl|ruby|php)$/i.test(first) && /\b(?:curl|wget)\b/i.test(prev))
        return true;
    }
    // (Only a single `|` hands output on: `||`, `;`, `&&` and line ends start afresh.)
    const pipe = ch === '|' && cmd[i + 1] !== '|' && cmd[i - 1] !== '|';
    prev = pipe && /\b(?:curl|wget|iwr|invoke-webrequest)\b/i.test(piece) ? piece : undefined;
    start = i + 1;
  }
  return false;
}

/** A command's lines, a command continued on the next line (after `&&`, `||`, `|` or `\`) as one. */
function joinedLines(text: string): string[] {
  return text.replace(/(&&|\|\||\||\\)[ \t]*\r?\n/g, '$1 ').split('\n');
}

/**
 * Whether one of the lines has a match of each part, each after the one before: `a[^\n]*b` read
 * from the first `a` of the line and the first `b` after it (a later `a` finds no `b` the first
 * one misses), so the cost is one pass per part.
 */
const GLOBAL = new WeakMap<RegExp, RegExp>();
function inOrder(lines: readonly string[], parts: RegExp[]): boolean {
  for (const line of lines) {
    let at = 0;
    let all = true;
    for (const part of parts) {
      let re = GLOBAL.get(part);
      if (!re) GLOBAL.set(part, (re = new RegExp(part.source, `${part.flags.replace('g', '')}g`)));
      re.lastIndex = at;
      const m = re.exec(line);
      if (!m) {
        all = false;
        break;
      }
      at = m.index + Math.max(m[0].length, 1);
    }
    if (all) return true;
  }
  return false;
}

export function analyzeShell(cmd: string, installTime: boolean): ShellHit[] {
  const hits: ShellHit[] = [];
  if (cmd.length > 100_000) cmd = cmd.slice(0, 100_000);
  const variant = installTime ? 'install' : undefined;
  let lines: string[] | undefined;
  for (const r of RULES) {
    if (
      r.re?.test(cmd) ||
      r.seq?.some((parts) => inOrder((lines ??= joinedLines(cmd)), parts)) ||
      (r.rule === 'shell.download-pipe-shell' && pipesDownloadIntoShell(cmd))
    ) {
      hits.push({
        rule: r.rule,
        threat_type: r.threat_type,
        confidence: confidence(r.rule, { variant }),
        variant,
        message: r.message,
      });
    }
  }
  // AI CLIs read word by word (the same reading as commands code starts): runners, `sh -c`,
  // and every permission-bypass flag of the tools the line rule above does not spell out.
  if (!hits.some((h) => h.rule === 'shell.ai-cli-unsafe') && AI_HINT.test(cmd)) {
    const bypass = aiCliBypass(commandLines(cmd));
    if (bypass)
      hits.push({
        rule: 'shell.ai-cli-unsafe',
        threat_type: 'install_script_injection',
        confidence: confidence('shell.ai-cli-unsafe', { variant }),
        variant,
        message: `invokes an AI command-line tool with its permission checks turned off (${bypass.cli} ${bypass.flag})`,
      });
  }
  return hits;
}

/** The programs a shell command line runs (first word of each simple command). */
export function shellPrograms(cmd: string): string[] {
  const out: string[] = [];
  for (const part of cmd.split(/&&|\|\||[;|&\n]/)) {
    const words = part.trim().split(/\s+/);
    let i = 0;
    while (i < words.length && /^[A-Za-z_][A-Za-z0-9_]*=/.test(words[i]!)) i++; // env assignments
    while (
      i < words.length &&
      /^(?:sudo|exec|nohup|env|time|npx|command|start|cmd|\/c|\/C)$/i.test(words[i]!)
    ) {
      i++;
    }
    // (A program may be quoted: `"python3" "$f"`, `"C:\\Program Files\\x.exe"` split at its space.)
    const w = words[i]?.replace(/^(["'])([^"']*)\1$/, '$2');
    if (w && /^[\w./\\:+-]+$/.test(w) && !/^-/.test(w))
      out.push(
        w
          .split(/[\\/]/)
          .pop()!
          .replace(/\.exe$/i, ''),
      );
  }
  return [...new Set(out.filter(Boolean))];
}

/**
 * The `make` commands of a command line (a command, not the word in an `echo`): the Makefile it
 * names (`-f`, `--file`), the folder it runs in (`-C`) and the goals it asks for.
 */
export function makeCommands(cmd: string): { file?: string; dir?: string; goals: string[] }[] {
  const out: { file?: string; dir?: string; goals: string[] }[] = [];
  for (const m of cmd.matchAll(/(?:^|[;&|(]\s*)(?:[^\s;&|()]*\/)?make\b([^;&|)]*)/g)) {
    const words = (m[1] ?? '')
      .trim()
      .split(/\s+/)
      .filter(Boolean)
      .map((w) => w.replace(/["']/g, ''));
    const c: { file?: string; dir?: string; goals: string[] } = { goals: [] };
    for (let i = 0; i < words.length; i++) {
      const w = words[i]!;
      const opt =
        /^(?:(-f|--file|--makefile)|(-C|--directory))(?:=|$)(.*)$/.exec(w) ?? /^(?:(-f)|(-C))(.+)$/.exec(w);
      if (opt) {
        const value = opt[3] || words[++i];
        if (opt[1]) c.file = value;
        else c.dir = value;
      } else if (/^(?:-j|--jobs|-l|-I|-o|-W)$/.test(w)) i++;
      else if (!w.startsWith('-') && !w.includes('=')) c.goals.push(w);
    }
    out.push(c);
  }
  return out;
}

/** A folder held in a variable or a command's output: `$HERE`, `${DIR}`, `$(dirname "$0")`. */
const DIR_VAR = String.raw`(?:\$\{[^}\n]*\}|\$\w+|\$\((?:[^()\n]|\([^()\n]*\))*\))`;

/**
 * Files a shell script reads in and runs as part of itself: `. ./lib/x.sh`, `source lib/x.sh`,
 * `. "$HERE/build.rc"`, `source "$(dirname "$0")/env.sh"` (a leading folder variable kept as
 * written: the caller resolves it against the script's folder).
 */
export function sourcedFiles(text: string): string[] {
  const out: string[] = [];
  const re = new RegExp(
    String.raw`(?:^|[;&|({]\s*|\b(?:then|do|else)\s+)(?:\.|source)\s+["']?((?:${DIR_VAR}\/)?[\w@./-]+)`,
    'gm',
  );
  for (const m of text.matchAll(re)) out.push(m[1]!.replace(/^\.\//, ''));
  return [...new Set(out)];
}

/**
 * Files a lifecycle script runs: `node x.js`, `sh x.sh`, `bash ./x`, `./x.js`, `python x.py`, the
 * interpreter named by its path too (`/bin/sh x.sh`, a Makefile recipe's `@/usr/bin/env bash x`).
 */
export function scriptTargets(cmd: string): string[] {
  const out: string[] = [];
  const re =
    /(?:^|[;&|]\s*|\s)[@+-]?(?:\/(?:usr\/)?(?:local\/)?bin\/(?:env\s+)?)?(?:node|nodejs|sh|bash|zsh|python3?|tsx|ts-node|bun|deno\s+run)\s+(?:-[-\w=]+\s+)*["']?((?:\.{0,2}\/)?[\w@./-]+\.(?:[cm]?js|ts|sh|py)|(?:\.{0,2}\/)?[\w@./-]*\/[\w@.-]+)["']?/g;
  for (const m of cmd.matchAll(re)) out.push(m[1]!);
  for (const m of cmd.matchAll(/(?:^|[;&|]\s*)\.\/([\w@./-]+)/g)) out.push(m[1]!);
  // `node setup` / `node lib/install`: a folder (its index.js) or a file named without extension.
  for (const m of cmd.matchAll(
    /(?:^|[;&|]\s*|\s)(?:node|nodejs)\s+(?:--?[\w-]+(?:=\S+)?\s+)*["']?([\w@][\w@./-]*)["']?(?=\s|$|[;&|])/g,
  ))
    out.push(m[1]!);
  // `make -f build/Makefile`, `make -C native`, `make`: the Makefile whose recipes run (with no
  // file named, what GNU make looks for, in order).
  for (const { file, dir } of makeCommands(cmd)) {
    const at = dir ? `${dir}/` : '';
    if (file) out.push(`${at}${file}`);
    else out.push(`${at}GNUmakefile`, `${at}makefile`, `${at}Makefile`);
  }
  // `bash "$HERE/lib/x.sh"`, `node "$(dirname "$0")/x.js"`: a file under a folder the script
  // holds in a variable (its own, as a rule; see sourcedFiles).
  for (const m of cmd.matchAll(
    new RegExp(
      String.raw`(?:^|[;&|(]\s*|\s)[@+-]?(?:\/(?:usr\/)?(?:local\/)?bin\/(?:env\s+)?)?(?:node|nodejs|sh|bash|zsh|python3?)\s+(?:-[-\w=]+\s+)*["']?(${DIR_VAR}\/[\w@./-]+)`,
      'g',
    ),
  ))
    out.push(m[1]!);
  // Windows: `cmd /c x.bat`, `x.cmd`, `powershell -ExecutionPolicy Bypass -File x.ps1`.
  for (const m of cmd.matchAll(/(?:^|[\s;&|])((?:\.{0,2}[\\/])?[\w@.\\/-]+\.(?:bat|cmd|ps1))\b/gi))
    out.push(m[1]!.replace(/\\/g, '/'));
  return [...new Set(out.map((p) => p.replace(/^\.\//, '')))];
}

/**
 * The package's own programs a command runs, with the words it gives them (up to the end of the
 * command: `npx --no-install lintgate refresh --quiet &` runs `bin/lintgate.js` with
 * `refresh --quiet`); a word with an expansion in it is not known (`undefined`).
 */
export function ownCommandRuns(
  cmd: string,
  bins: Record<string, string>,
  name: string | undefined,
): { file: string; args: (string | undefined)[] }[] {
  const out: { file: string; args: (string | undefined)[] }[] = [];
  for (const line of cmd.split(/\r?\n|;|&&|\|\||&(?!>)|\|/)) {
    const files = ownCommandTargets(line, bins, name);
    if (!files.length) continue;
    const words = line.trim().split(/\s+/);
    // (The words after the first that names the program: its bin name, the package or the file.)
    const at = words.findIndex((w) => {
      const bare = w.replace(/^["']|["']$/g, '');
      return (
        Object.hasOwn(bins, bare) ||
        bare === name ||
        files.some((f) => bare.endsWith(f)) ||
        /node_modules\/\.bin\//.test(bare)
      );
    });
    // (`[ -x node_modules/.bin/tool ]` tests the program; it does not run it.)
    if (at > 0 && /^(?:\[\[?|test|-[a-zA-Z])$/.test(words[at - 1]!)) continue;
    // (Redirections are not arguments; `"$@"` hands on what git gives, and `${hook}` or `$1` is a
    // word not known here: kept as a place, so the words after it keep theirs.)
    const args = (at >= 0 ? words.slice(at + 1) : [])
      .filter((w) => !/^\d?>|^</.test(w) && !/^["']?\$@["']?$/.test(w))
      .map((w) => (w.includes('$') ? undefined : w.replace(/^["']|["']$/g, '')));
    for (const file of files) out.push({ file, args });
  }
  return out;
}

/**
 * The package's own programs a command runs (its `bin` files, package-relative), as a git hook or
 * a start-up line it planted would run them: `npx [--no-install] <bin>`, `npm exec`, `pnpm`,
 * `yarn`, `bunx`, `node_modules/.bin/<bin>`, the bin's bare name as a command, or
 * `node …/node_modules/<name>/<file>`.
 */
export function ownCommandTargets(
  cmd: string,
  bins: Record<string, string>,
  name: string | undefined,
): string[] {
  const out: string[] = [];
  const names = Object.keys(bins);
  const sole = names.length === 1 ? bins[names[0]!] : undefined;
  const binOf = (word: string): string | undefined => {
    const w = word.replace(/@[^/@\s]*$/, '');
    if (Object.hasOwn(bins, w)) return bins[w];
    // (`npx <package>` runs its bin named like it, or its only one.)
    if (name && w === name) return bins[name.replace(/^@[^/]+\//, '')] ?? sole;
    return undefined;
  };
  const at = '(?:^|[;&|(`]\\s*|\\$\\(\\s*|\\b(?:then|do|else|exec|nohup|command)\\s+)';
  const word = '["\']?([@\\w][\\w@./-]*)["\']?';
  const runners = new RegExp(
    `${at}(?:npx|bunx|pnpx|(?:npm|pnpm)\\s+exec|pnpm|yarn(?:\\s+run)?)\\s+(?:-{1,2}\\w[\\w-]*(?:=\\S+)?\\s+)*(?:--\\s+)?${word}`,
    'gm',
  );
  for (const m of cmd.matchAll(runners)) out.push(binOf(m[1]!) ?? '');
  for (const m of cmd.matchAll(/node_modules\/\.bin\/([\w@.-]+)/g)) out.push(binOf(m[1]!) ?? '');
  for (const m of cmd.matchAll(new RegExp(`${at}${word}(?=\\s|$|[;&|)])`, 'gm'))) {
    const w = m[1]!;
    if (Object.hasOwn(bins, w)) out.push(bins[w]!);
  }
  if (name) {
    const own = new RegExp(`node_modules\\/${escapeRegExp(name)}\\/([\\w@./-]+)`, 'g');
    for (const m of cmd.matchAll(own)) out.push(m[1]!);
    // A hook written in JavaScript that loads the package (`require('lintgate/lib/rules')`).
    const loads = new RegExp(
      `\\b(?:require|import)\\s*\\(?\\s*["'\`]${escapeRegExp(name)}\\/([\\w@./-]+)["'\`]`,
      'g',
    );
    for (const m of cmd.matchAll(loads)) out.push(m[1]!, `${m[1]!}.js`, `${m[1]!}/index.js`);
  }
  // `node "${…}/../bin/tool.js"`: a file of the package named by a path built at run time (from
  // its own folder); the trailing parts of the path are tried as package files by the caller.
  for (const m of cmd.matchAll(
    /\bnode\s+(?:--?[\w-]+(?:=\S+)?\s+)*["']?([^\s"';&|]*\$\{…\}[^\s"';&|]*\.[cm]?js)\b/g,
  )) {
    const parts = m[1]!.split('/').filter((p) => p && p !== '.' && p !== '..' && !p.includes('$'));
    for (let n = Math.min(parts.length, 4); n >= 1; n--) out.push(parts.slice(-n).join('/'));
  }
  return [
    ...new Set(out.filter(Boolean).map((p) => posix.normalize(p.replace(/^\.\//, '')).replace(/^\.\//, ''))),
  ];
}

/**
 * A git hooks folder: `.git/hooks`, a worktree's or submodule's (`.git/modules/x/hooks`), husky's,
 * or the `hooks` folder of a git directory read from a `.git` file (`gitdir: …`, not known here).
 */
export const GIT_HOOK_DIR = /(?:^|\/)(?:\.git\/(?:[\w.-]+\/)*hooks|\.husky|\.?git-?hooks|\$\{…\}\/hooks)\//;
/** A file in a git hooks folder. */
const HOOK_TARGET = new RegExp(`${GIT_HOOK_DIR.source}[^/]+$`);

/**
 * What a shell script writes into git hooks (`printf '…' > .git/hooks/post-merge`, `echo … >>
 * "$ROOT/.husky/pre-commit"`, `cat > .git/hooks/x <<EOF … EOF`, `cat <<'EOF' > "$HOOK"`, `tee`):
 * the commands those hooks will run. Plain assignments (`HOOK=.git/hooks/x`) are substituted.
 */
export function hookBodies(text: string): string[] {
  const out: string[] = [];
  const vars = new Map<string, string>();
  const lines = text.slice(0, 200_000).split(/\r?\n/);
  // (Each line's expansion is bounded: `A=$A$A` repeated doubles a value on every line.)
  const expand = (line: string) => {
    if (!vars.size) return line;
    let budget = 64 * 1024;
    return line.replace(/\$\{?([A-Za-z_]\w*)(?::-[^}]*)?\}?/g, (m, n: string) => {
      const v = vars.get(n);
      if (v === undefined || v.length > budget) return m;
      budget -= v.length;
      return v;
    });
  };
  for (let i = 0; i < lines.length && out.length < 20; i++) {
    const raw = lines[i]!;
    if (raw.length > 8192) continue;
    const assigned =
      /^\s*(?:export\s+|local\s+|readonly\s+)?([A-Za-z_]\w*)=(["']?)([^"'\n]{0,1000})\2\s*$/.exec(raw);
    if (assigned && vars.size < 200) vars.set(assigned[1]!, expand(assigned[3]!));
    const line = expand(raw);
    if (!line.includes('.git/') && !line.includes('.husky/')) continue;
    // Where the line writes: `> target`, `>> target`, `tee [-a] target`.
    let into: number | undefined;
    for (const m of line.matchAll(/(?:>>?|\btee\s+(?:-a\s+)?)\s*(["']?)([^\s"'<>|;&]+)\1/g))
      if (HOOK_TARGET.test(m[2]!)) {
        into = m.index;
        break;
      }
    if (into === undefined) continue;
    const heredoc = /<<-?\s*["']?(\w+)["']?/.exec(line);
    if (heredoc && /\b(?:cat|tee)\b/.test(line)) {
      const end = new RegExp(String.raw`^\s*${heredoc[1]!}\s*$`);
      const body: string[] = [];
      while (++i < lines.length && !end.test(lines[i]!) && body.length < 200) body.push(lines[i]!);
      out.push(body.join('\n'));
      continue;
    }
    const printed = /\b(?:printf|echo)\s+(?:-[neE]+\s+)?/.exec(line.slice(0, into));
    if (printed)
      out.push(
        line
          .slice(printed.index + printed[0].length, into)
          .trim()
          .replace(/^["']|["']$/g, '')
          .replace(/\\n/g, '\n'),
      );
  }
  return out;
}

/** Inline code of `node -e "..."` / `node -p '...'`. */
export function inlineNodeCode(cmd: string): string[] {
  const out: string[] = [];
  for (const m of cmd.matchAll(
    /\bnode\b(?:\s+--?[\w-]+(?:=\S+)?)*?\s+(?:-e|-p|--eval|--print)\s+(["'])((?:\\.|(?!\1).)*)\1/g,
  )) {
    out.push(m[2]!.replace(/\\(["'\\])/g, '$1'));
  }
  return out;
}
