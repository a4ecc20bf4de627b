/**
 * Behaviour of the scripts lifecycle hooks run: POSIX shell, Windows batch, PowerShell and
 * Python files. A script is read as a sequence of commands with their arguments (variables
 * assigned earlier substituted, quotes removed, line continuations joined), and the rules look at
 * what the commands do together rather than at one line's text:
 *
 * - download → (chmod) → execute of the same file, in one line or across lines and variables;
 * - the environment dumped into a network command (`env | base64 | curl -d @-`);
 * - miners, persistence (cron, Run keys, launch agents, systemd user units, scheduled tasks).
 *
 * The line rules of shell.ts still run on every line, after variable substitution.
 * Pure functions over text: nothing is executed.
 */
import type { ThreatType } from '../contract/schemas';
import { confidence, type ConfidenceQuery, type RuleId, type VariantOf } from './rules';
import { EXFIL_HOST, SENSITIVE_PATH } from './indicators';
import type { CapabilityCollector } from './capabilities';
import { analyzeShell } from './shell';
import { isIpHost } from './ip-address';
import { gunzipSync } from 'node:zlib';

export type ScriptDialect = 'sh' | 'batch' | 'powershell' | 'python';

export interface ScriptHit {
  rule: RuleId;
  threat_type: ThreatType;
  /** From the catalogue, for the variant and steps below. */
  confidence: number;
  variant?: VariantOf<RuleId>;
  steps?: number;
  message: string;
  line: number;
  text: string;
}

/** A hit whose confidence is the rule's catalogue confidence for `level`. */
function scriptHit(
  rule: RuleId,
  threat_type: ThreatType,
  message: string,
  line: number,
  text: string,
  level: ConfidenceQuery = {},
): ScriptHit {
  return {
    rule,
    threat_type,
    confidence: confidence(rule, level),
    variant: level.variant,
    steps: level.steps,
    message,
    line,
    text,
  };
}

interface Command {
  line: number;
  text: string;
  words: string[];
  /** Ends with `&`, or starts through nohup/setsid/start /b/Start-Process -WindowStyle Hidden. */
  background: boolean;
  /** Piped into the next command. */
  pipedTo?: Command;
}

const MAX_LINES = 5_000;
const MAX_VARS = 500;

export function dialectOf(path: string, head: string): ScriptDialect | undefined {
  if (/\.(?:bat|cmd)$/i.test(path)) return 'batch';
  if (/\.ps1$/i.test(path)) return 'powershell';
  if (/\.py$/i.test(path) || /^#!.*\bpython/.test(head)) return 'python';
  if (/\.(?:sh|bash|zsh)$/i.test(path) || /^#!.*\b(?:ba|z|da|k)?sh\b/.test(head)) return 'sh';
  return undefined;
}

/** Joins continued lines, keeping the number of the first physical line. */
function logicalLines(text: string, dialect: ScriptDialect): { line: number; text: string }[] {
  const out: { line: number; text: string }[] = [];
  const cont = dialect === 'batch' ? /\^$/ : dialect === 'powershell' ? /`$/ : /\\$/;
  let buf = '';
  let start = 0;
  const lines = text.split(/\r?\n/).slice(0, MAX_LINES);
  let heredoc: { end: RegExp; command: string; body: { line: number; text: string }[] } | undefined;
  lines.forEach((raw, i) => {
    // A here-document is what its command reads on stdin: `cmd <<EOF … EOF` is read as
    // `printf '%s\n' "…" | cmd`, so a sender fed the environment this way is seen as one fed by a pipe.
    if (heredoc) {
      if (heredoc.end.test(raw)) {
        const body = heredoc.body
          .map((b) => b.text)
          .join('\n')
          .replace(/(["\\])/g, '\\$1');
        out.push({ line: start, text: `printf '%s\\n' "${body}" | ${heredoc.command}` });
        // Fed to a shell (`sh <<EOF`, `sudo bash -s <<'X'`): the lines are commands it runs.
        if (/^(?:sudo\s+)?(?:\S*\/)?(?:ba|z|da|k)?sh(?:\s+-[a-z]+)*\s*$/.test(heredoc.command.trim()))
          out.push(...heredoc.body);
        heredoc = undefined;
      } else if (heredoc.body.length < 200) heredoc.body.push({ line: i + 1, text: raw });
      else {
        // Too long for a here-document: read what was held back as ordinary lines.
        out.push({ line: start, text: heredoc.command }, ...heredoc.body, { line: i + 1, text: raw });
        heredoc = undefined;
      }
      return;
    }
    const here = dialect === 'sh' && !buf && raw.includes('<<') ? hereDocStart(raw) : null;
    // `<<` inside quotes or arithmetic (`echo "a <<EOF"`, `$((1 << n))`) starts no here-document.
    const quoted = here
      ? (here[1]!.match(/(?<!\\)"/g)?.length ?? 0) % 2 === 1 || (here[1]!.match(/'/g)?.length ?? 0) % 2 === 1
      : false;
    if (here && !quoted && !/\(\(/.test(here[1]!) && !/^\s*#/.test(raw) && !/<<</.test(raw)) {
      start = i + 1;
      heredoc = {
        end: new RegExp(`^\\s*${here[3]}\\s*$`),
        command: `${here[1]} ${here[4]}`.trim(),
        body: [],
      };
      return;
    }
    if (!buf) start = i + 1;
    if (cont.test(raw)) {
      buf += `${raw.slice(0, -1)} `;
      return;
    }
    buf += raw;
    out.push({ line: start, text: buf });
    buf = '';
  });
  if (buf) out.push({ line: start, text: buf });
  // A here-document never closed: its lines are read as ordinary lines (they would run).
  if (heredoc) out.push({ line: start, text: heredoc.command }, ...heredoc.body);
  return out;
}

function isComment(line: string, dialect: ScriptDialect): boolean {
  const t = line.trim();
  if (dialect === 'batch') return /^(?:rem\b|::)/i.test(t);
  return t.startsWith('#') && !t.startsWith('#!');
}

/** Records `NAME=value` (sh), `set NAME=value` (batch), `$NAME = value` (PowerShell, Python). */
function assignment(line: string, dialect: ScriptDialect): [string, string] | undefined {
  const t = line.trim();
  let m: RegExpMatchArray | null;
  if (dialect === 'sh') m = /^(?:export\s+|local\s+|readonly\s+)?([A-Za-z_]\w*)=(.*)$/.exec(t);
  else if (dialect === 'batch') m = /^set\s+"?([A-Za-z_][\w.-]*)=([^"]*)"?\s*$/i.exec(t);
  else if (dialect === 'powershell') m = /^\$([A-Za-z_]\w*)\s*=\s*(.+)$/.exec(t);
  else m = /^([A-Za-z_]\w*)\s*=\s*(.+)$/.exec(t);
  if (!m) return undefined;
  // A bash array (`T=("$HOME/a" "$HOME/b")`) holds its elements as one list.
  const array = dialect === 'sh' ? /^\((.*)\)$/.exec(m[2]!.trim()) : null;
  if (array) return [m[1]!, words(array[1]!).map(unquote).join(' ')];
  return [m[1]!, unquote(m[2]!.trim())];
}

function unquote(s: string): string {
  return s.replace(/^(['"])(.*)\1$/s, '$2');
}

function substitute(line: string, vars: Map<string, string>, dialect: ScriptDialect): string {
  if (!vars.size) return line;
  // (What one line expands to is bounded: `A=$A$A` repeated doubles a value on every line.)
  // A value over 16 KB expands to its first 16 KB; small values (a host, a path) expand past the
  // budget, so that one large variable does not hide the others on its line.
  let budget = 256 * 1024;
  let small = 64 * 1024;
  const get = (name: string, whole: string) => {
    const v = vars.get(name);
    if (v === undefined) return whole;
    const part = v.length > 16_384 ? v.slice(0, 16_384) : v;
    if (part.length <= budget) {
      budget -= part.length;
      return part;
    }
    if (part.length <= 256 && part.length <= small) {
      small -= part.length;
      return part;
    }
    return whole;
  };
  if (dialect === 'batch')
    return (
      line
        .replace(/[%!]([A-Za-z_][\w.-]*)[%!]/g, (w, n: string) => (w[0] === w.at(-1) ? get(n, w) : w))
        // (`%%~F`, `%%~nxF`: the loop variable with modifiers, read as the variable.)
        .replace(/%%(?:~[a-z]*)?([A-Za-z])\b/g, (w, n: string) => get(n, w))
    );
  if (dialect === 'python') return line;
  return line
    .replace(/\$\{([A-Za-z_]\w*)(?:\[[^\]]*\])?\}/g, (w, n: string) => get(n, w))
    .replace(/\$env:([A-Za-z_]\w*)/gi, (w, n: string) => get(n, w))
    .replace(/\$([A-Za-z_]\w*)/g, (w, n: string) => get(n, w));
}

/** Splits a shell word list, honouring quotes; `$(…)` and backticks are kept inside one word. */
function words(segment: string): string[] {
  const out: string[] = [];
  let cur = '';
  let quote = '';
  let depth = 0;
  for (let i = 0; i < segment.length; i++) {
    const ch = segment[i]!;
    if (quote) {
      if (quote === '"' && ch === '$' && segment[i + 1] === '(') {
        const end = substitutionEnd(segment, i + 1);
        cur += segment.slice(i, end);
        i = end - 1;
        continue;
      }
      // Inside double quotes a backslash keeps the next quote, backslash, $ or backtick literal.
      if (quote === '"' && ch === '\\' && /["\\$`]/.test(segment[i + 1] ?? '')) cur += segment[++i];
      else if (ch === quote) quote = '';
      else cur += ch;
      continue;
    }
    if (ch === '(' && cur.endsWith('$')) depth++;
    else if (ch === ')' && depth) depth--;
    if (!depth && (ch === '"' || ch === "'")) {
      quote = ch;
      continue;
    }
    if (!depth && /\s/.test(ch)) {
      if (cur) out.push(cur);
      cur = '';
      continue;
    }
    cur += ch;
  }
  if (cur) out.push(cur);
  return out;
}

/** The index just after the `)` closing the `(` at `open`, quotes inside skipped (bounded). */
function substitutionEnd(text: string, open: number): number {
  let depth = 0;
  let quote = '';
  for (let i = open; i < text.length && i < open + 10_000; i++) {
    const ch = text[i]!;
    if (quote) {
      if (ch === '\\') i++;
      else if (ch === quote) quote = '';
      continue;
    }
    if (ch === '"' || ch === "'") quote = ch;
    else if (ch === '(') depth++;
    else if (ch === ')' && --depth === 0) return i + 1;
  }
  return text.length;
}

/** The bracket opening `t` is closed by its last character (a group, not `(expr).Method()`). */
function closesAtEnd(t: string, open: string, close: string): boolean {
  let depth = 0;
  let quote = '';
  for (let i = 0; i < t.length; i++) {
    const ch = t[i]!;
    if (quote) {
      if (ch === quote) quote = '';
      continue;
    }
    if (ch === '"' || ch === "'") quote = ch;
    else if (ch === open) depth++;
    else if (ch === close && --depth === 0) return i === t.length - 1;
  }
  return false;
}

/** Redirections at the end of a command (`>/dev/null 2>&1`, `2> err.log`, `< in`). */
const REDIRECT_AT_END = /\s*(?:\d?>>?|&>>?|<)\s*(?:&\d|[^\s()<>&|;]+)$/;

/**
 * The text without the redirections at its end, one at a time over its last characters (bounded:
 * a regular expression repeated and anchored at the end would retry from every position).
 */
function withoutTrailingRedirects(t: string): string {
  let s = t.trimEnd();
  for (let n = 0; n < 16; n++) {
    const m = REDIRECT_AT_END.exec(s.slice(-300));
    if (!m) break;
    s = s.slice(0, s.length - m[0].length).trimEnd();
  }
  return s;
}

/** Splits a logical line into commands at `;`, `&&`, `||`, `|` and `&`, outside quotes. */
function commands(line: number, text: string, nesting = 0): Command[] {
  const parts: { text: string; sep: string }[] = [];
  let cur = '';
  let quote = '';
  let depth = 0;
  let braces = 0;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (quote) {
      if (quote === '"' && ch === '\\' && /["\\$`]/.test(text[i + 1] ?? '')) {
        cur += ch + text[++i];
        continue;
      }
      // `"…$(cmd "x")…"`: a command substitution inside double quotes has quotes of its own.
      if (quote === '"' && ch === '$' && text[i + 1] === '(') {
        const end = substitutionEnd(text, i + 1);
        cur += text.slice(i, end);
        i = end - 1;
        continue;
      }
      if (ch === quote) quote = '';
      cur += ch;
      continue;
    }
    if (ch === '"' || ch === "'") quote = ch;
    if (ch === '(') depth++;
    if (ch === ')' && depth) depth--;
    if (ch === '{' && (text[i - 1] === '@' || braces)) braces++; // PowerShell @{ hashtable }
    if (ch === '}' && braces) braces--;
    if (!depth && !braces && (ch === ';' || ch === '|' || ch === '&')) {
      const two = text.slice(i, i + 2);
      const redirect = ch === '&' && (text[i - 1] === '>' || text[i + 1] === '>');
      if (!redirect) {
        const sep = two === '&&' || two === '||' ? two : ch;
        parts.push({ text: cur, sep });
        cur = '';
        if (sep.length === 2) i++;
        continue;
      }
    }
    cur += ch;
  }
  parts.push({ text: cur, sep: '' });
  const out: Command[] = [];
  for (const p of parts) {
    // A subshell or group (`(curl … | sh &)`, `{ a; b; }`): the commands inside it.
    // (Redirections after the group, `( f ) >/dev/null 2>&1 &`, are the group's.)
    const t = p.text.trim();
    const g = /^[({]/.test(t) ? withoutTrailingRedirects(t) : t;
    if ((/^\((?!\()/.test(g) && closesAtEnd(g, '(', ')')) || (/^\{\s/.test(g) && closesAtEnd(g, '{', '}'))) {
      const inner = commands(line, g.slice(1, -1));
      if (p.sep === '&') for (const c of inner) c.background = true;
      out.push(...inner);
      continue;
    }
    const w = words(t);
    if (!w.length) continue;
    // A launcher's command, read as the command it starts (in the background for a detached
    // terminal session).
    // (Three launchers deep at most: `nice nice nice …` is not read further.)
    const launch = nesting < 3 ? launched(w) : undefined;
    if (launch) {
      const inner = commands(line, launch.text, nesting + 1);
      for (const c of inner) if (launch.background || p.sep === '&') c.background = true;
      out.push(...inner);
      continue;
    }
    const background =
      p.sep === '&' ||
      /^(?:nohup|setsid|disown)$/i.test(w[0]!) ||
      (/^start$/i.test(w[0]!) && w.some((x) => /^\/b$/i.test(x))) ||
      (/^start-process$/i.test(w[0]!) && /-windowstyle\s+hidden/i.test(p.text));
    const cmd: Command = { line, text: p.text.trim(), words: w, background };
    const prev = out[out.length - 1];
    if (prev && prev.pipedTo === undefined && (prev as Command & { pipe?: boolean }).pipe) prev.pipedTo = cmd;
    (cmd as Command & { pipe?: boolean }).pipe = p.sep === '|';
    out.push(cmd);
  }
  return out;
}

/**
 * `tmux [-L socket] new-session -ds name <command>` (tmux's arguments, without its name): the
 * command, past tmux's own options (`-L`, `-S`, `-f` with a value), the subcommand and its options
 * (a cluster ending in a letter that takes a value takes the next word), and whether `-d` detaches it.
 */
export function tmuxCommand(argv: string[]): { command: string[]; detached: boolean } | undefined {
  const flag = (k: number) => argv[k] !== undefined && /^-/.test(argv[k]!);
  let i = 0;
  let detached = false;
  for (; flag(i); i++) if (/^-[LSf]$/.test(argv[i]!)) i++;
  if (!/^(?:new-session|new|new-window|neww|split-window|splitw)$/.test(argv[i] ?? '')) return undefined;
  for (i++; flag(i); i++) {
    if (/^-[a-zA-Z]*d/.test(argv[i]!)) detached = true;
    if (/^-[a-zA-Z]*[sntcxyFelL]$/.test(argv[i]!)) i++;
  }
  return { command: argv.slice(i), detached };
}

/**
 * What a launcher starts: `tmux new-session -d [-s name] 'cmd …'` and `screen -dmS name cmd …`
 * (a detached session, in the background), `nice -n 19 cmd`, `ionice -c3 cmd`, `timeout 5m cmd`.
 */
function launched(w: string[]): { text: string; background: boolean } | undefined {
  const name = base(w[0]!);
  let i = 1;
  let background = false;
  const flag = (k: number) => w[k] !== undefined && /^-/.test(w[k]!);
  if (name === 'tmux') {
    const t = tmuxCommand(w.slice(1));
    if (!t) return undefined;
    i = w.length - t.command.length;
    background = t.detached;
  } else if (name === 'screen') {
    let detach = false;
    let start = false;
    for (; flag(i); i++) {
      if (/^-[Ll]ogfile$/.test(w[i]!)) {
        i++;
        continue;
      }
      if (/^-[a-zA-Z]*d/.test(w[i]!)) detach = true;
      if (/^-[a-zA-Z]*m/.test(w[i]!)) start = true;
      if (/^-[a-zA-Z]*[SclpTXe]$/.test(w[i]!)) i++;
    }
    background = detach && start;
  } else if (name === 'nice' || name === 'ionice' || name === 'timeout') {
    const valued = name === 'timeout' ? /^-[sk]$/ : name === 'nice' ? /^-n$/ : /^-[cn]$/;
    for (; flag(i); i++) if (valued.test(w[i]!)) i++;
    if (name === 'timeout' && /^\d+(?:\.\d+)?[smhd]?$/.test(w[i] ?? '')) i++;
  } else return undefined;
  if (i >= w.length) return undefined;
  // (One quoted word is a shell text of its own; several are a program and its arguments.)
  const rest = w.slice(i);
  const text = rest.length === 1 ? rest[0]! : rest.map((x) => (/\s/.test(x) ? `'${x}'` : x)).join(' ');
  return { text, background };
}

const LEADING_ASSIGN =
  /^\s*(?:export\s+)?([A-Za-z_]\w*)=("[^"]*"|'[^']*'|`[^`]*`|\$\([^)]*\)|[^\s;&|'"`]*)\s*(?:;|&&)\s*(\S.*)$/;

/** Programs a decoded script is handed to, and the dialect it is read in. */
const INTERPRETER = /^(?:(?:ba|z|da|k)?sh|python(?:3(?:\.\d+)?)?)$/;

/**
 * `cmd <<EOF rest`: the command before the first `<<`, the delimiter and what follows it, as
 * `^(.*?)\s*<<-?\s*(['"]?)(\w+)\2\s*(.*)$` would match (found by position: that expression
 * backtracks over every blank of a long line).
 */
function hereDocStart(raw: string): [string, string, string, string, string] | null {
  const m = /<<-?\s*(['"]?)([A-Za-z_]\w*)\1\s*/.exec(raw);
  if (!m) return null;
  return [raw, raw.slice(0, m.index).trimEnd(), m[1]!, m[2]!, raw.slice(m.index + m[0].length)];
}

/**
 * A separator outside quotes, for `String.prototype.split`: `/;(?=(?:[^"']|"[^"]*"|'[^']*')*$)/`
 * without its look-ahead, which reads the rest of the line at every separator (a line of
 * thousands of them took seconds). The quotes are scanned once, left to right.
 */
function outsideQuotes(sep: RegExp, quotes: string): { [Symbol.split](text: string): string[] } {
  return {
    [Symbol.split](text: string): string[] {
      const out: string[] = [];
      const re = new RegExp(sep.source, 'y');
      let quote = '';
      let start = 0;
      for (let i = 0; i < text.length; i++) {
        const ch = text[i]!;
        if (quote) {
          if (ch === quote) quote = '';
          continue;
        }
        if (quotes.includes(ch)) {
          quote = ch;
          continue;
        }
        re.lastIndex = i;
        const m = re.exec(text);
        if (!m) continue;
        out.push(text.slice(start, i));
        start = i + m[0].length;
        i = start - 1;
      }
      out.push(text.slice(start));
      return out;
    },
  };
}
/** PowerShell statements joined with `;`, and cmd.exe commands joined with `&` or `&&`. */
const SEMICOLON = outsideQuotes(/;/, `"'`);
const AMPERSAND = outsideQuotes(/&&?/, '"');

/** Splits a pipeline at its unquoted single `|` (not `||`), outside `$(…)`. */
function pipelineStages(text: string): string[] {
  const out: string[] = [];
  let quote = '';
  let depth = 0;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (quote) {
      if (ch === '\\' && quote === '"') i++;
      else if (ch === quote) quote = '';
      continue;
    }
    if (ch === '"' || ch === "'") quote = ch;
    else if (ch === '(') depth++;
    else if (ch === ')' && depth) depth--;
    else if (ch === '|' && !depth) {
      if (text[i + 1] === '|') {
        i++;
        continue;
      }
      out.push(text.slice(start, i));
      start = i + 1;
    }
  }
  out.push(text.slice(start));
  return out.map((x) => x.trim());
}

/**
 * What a decoding pipeline prints: a literal echoed, printed or given as a here-string, then
 * `rev`, `base64 -d`, `openssl base64 -d`, `xxd -r -p` and gunzip in the order written. Undefined
 * unless every stage is one of those, one of them decodes, and the literal is known.
 */
function decodePipeline(stages: string[]): Buffer | undefined {
  let data: Buffer | undefined;
  let decoded = false;
  for (const [i, stage] of stages.entries()) {
    const here = /<<<\s*(.+)$/.exec(stage);
    const ws = words(here ? stage.slice(0, here.index) : stage);
    const [p, ...a] = ws;
    if (here) data = Buffer.from(words(here[1]!).join(' '), 'latin1');
    if (i === 0 && !here) {
      if (p === 'echo') data = Buffer.from(a.filter((x) => !/^-[neE]+$/.test(x)).join(' '), 'latin1');
      else if (p === 'printf')
        data = Buffer.from(
          // (`printf %s "$P"`, `printf '%s%s' "$A" "$B"`: the arguments, joined.)
          a.length > 1 && /^(?:%s)+(?:\\n)?$/.test(a[0]!) ? a.slice(1).join('') : (a[0] ?? ''),
          'latin1',
        );
      else return undefined;
      if (/\$/.test(data.toString('latin1'))) return undefined; // a variable not known here
      continue;
    }
    if (!data) return undefined;
    if (p === 'rev')
      data = Buffer.from(
        data
          .toString('latin1')
          .split('\n')
          .map((l) => [...l].reverse().join(''))
          .join('\n'),
        'latin1',
      );
    else if (p === 'cat' && !a.length) continue;
    else if (
      (p === 'base64' && a.some((x) => /^-(?:-decode|[a-zA-Z]*[dD][a-zA-Z]*)$/.test(x))) ||
      (p === 'openssl' && a.some((x) => /^-?base64$|^-a$/.test(x)) && a.includes('-d'))
    ) {
      data = Buffer.from(data.toString('latin1').replace(/\s+/g, ''), 'base64');
      decoded = true;
    } else if (
      p === 'xxd' &&
      a.some((x) => /^-[a-z]*r/.test(x)) &&
      a.some((x) => /^-(?:p|ps|plain)$|^-[a-z]*p/.test(x))
    ) {
      data = Buffer.from(data.toString('latin1').replace(/[^0-9a-f]/gi, ''), 'hex');
      decoded = true;
    } else if (p === 'gunzip' || p === 'zcat' || (p === 'gzip' && a.some((x) => /^-[a-z]*d/.test(x)))) {
      try {
        data = gunzipSync(data, { maxOutputLength: 1 << 20 });
      } catch {
        return undefined;
      }
      decoded = true;
    } else return undefined;
  }
  return decoded ? data : undefined;
}

/**
 * Scripts a line decodes and runs: a decoding pipeline piped into a shell or Python
 * (`echo … | rev | base64 -d | sh`), or given to one as its script (`eval "$(printf %s "$P" |
 * base64 -d)"`, `sh -c "$(…)"`, `bash <(…)`, `source <(…)`). The decoded text, with the dialect
 * it is read in.
 */
function decodedScripts(text: string): { script: string; dialect: ScriptDialect }[] {
  if (!/\b(?:base64|xxd|openssl|gunzip|zcat|gzip)\b/.test(text)) return [];
  const out: { script: string; dialect: ScriptDialect }[] = [];
  const take = (stages: string[], runner: string) => {
    const data = decodePipeline(stages);
    if (!data || out.length >= 8) return;
    const script = data.toString('utf8');
    // eslint-disable-next-line no-control-regex -- binary data is not a script
    if (!script.trim() || /[\x00-\x08\x0e-\x1f]/.test(script.slice(0, 200))) return;
    out.push({ script: script.slice(0, 200_000), dialect: /^python/.test(runner) ? 'python' : 'sh' });
  };
  // (The interpreter's output may be piped on: `… | base64 -d | python3 | gzip | curl …`.)
  const stages = pipelineStages(text);
  for (let i = 1; i < stages.length && i < 8; i++) {
    // (Past wrappers: `| sudo sh`, `| nohup bash`, `| /usr/bin/env bash`.)
    const ws = words(stages[i]!).filter(
      (w) => !/^(?:sudo|nohup|setsid|exec|command|(?:\/[\w/]*\/)?env)$/.test(w) && !/^-/.test(w),
    );
    const runner = ws[0]?.replace(/^.*\//, '') ?? '';
    if (!INTERPRETER.test(runner)) continue;
    take(stages.slice(0, i), runner);
    break;
  }
  // (At most 16 openers a line: each is read to its closing parenthesis.)
  let seen = 0;
  for (const m of text.matchAll(
    /(?:\beval\s+|\b((?:ba|z|da|k)?sh|python3?)\s+-c\s+|\bsource\s+|(?:^|[;&|{]\s*)\.\s+)["']?\$\(|\b((?:ba|z|da|k)?sh|source|\.)\s+<\(/g,
  )) {
    if (++seen > 16 || out.length >= 8) break;
    const open = m.index + m[0].length - 1;
    const inner = text.slice(open + 1, substitutionEnd(text, open) - 1);
    take(pipelineStages(inner), m[1] ?? m[2] ?? 'sh');
  }
  return out;
}

/** Wrappers that run the next word as the program, and the shell's words that start a command (`do ping …`, `then curl …`, `! grep …`). */
const WRAPPERS =
  /^(?:sudo|nohup|setsid|exec|env|time|command|start|call|cmd(?:\.exe)?|\/c|\/b|\/min|""|&|\.|do|then|else|elif|if|while|until|!|\{)$/i;

/** The program a command runs and its arguments, past wrappers such as nohup, sudo, start /b. */
function programOf(c: Command): { prog: string; args: string[] } {
  let i = 0;
  while (
    i < c.words.length &&
    (WRAPPERS.test(c.words[i]!) ||
      /^[A-Za-z_]\w*=/.test(c.words[i]!) ||
      // cmd's `start "Window title" prog`: the quoted title is not the program.
      (/^start$/i.test(c.words[i - 1] ?? '') &&
        i + 1 < c.words.length &&
        /\bstart\s+"([^"]*)"/i.exec(c.text)?.[1] === c.words[i]))
  )
    i++;
  return { prog: c.words[i] ?? '', args: c.words.slice(i + 1) };
}

const base = (p: string) =>
  p
    .replace(/^["']|["']$/g, '')
    .split(/[\\/]/)
    .pop()!
    .toLowerCase();

const URL_RE = /\b(?:https?|ftp):\/\/[^\s"'`)|;<>]+/i;

function urlRisk(url: string | undefined): { plain: boolean; bareIp: boolean } {
  if (!url) return { plain: false, bareIp: false };
  const host = /^[a-z]+:\/\/(?:[^@/?#\s]*@)?(\[[^\]]+\]|[^/:?#]+)/i.exec(url)?.[1] ?? '';
  return { plain: /^(?:http|ftp):/i.test(url), bareIp: isIpHost(host) };
}

export interface Download {
  url?: string;
  out?: string;
  line: number;
}

/** A file decoded into another by a command: `certutil -decode[hex] in out`, `base64 -d in > out`. */
function decodedCopy(c: Command): { from: string; to: string } | undefined {
  const { prog, args } = programOf(c);
  const p = base(prog)
    .replace(/\.exe$/i, '')
    .toLowerCase();
  const files = args.filter(
    (a) => !/^[-/]/.test(a) && !/^\d?>/.test(a) && !/^>>?/.test(a) && !/^nul$/i.test(a),
  );
  if (p === 'certutil' && args.some((a) => /^[-/]decode(?:hex)?$/i.test(a)) && files.length >= 2)
    return { from: files[0]!, to: files[1]! };
  const redirect = /(?:^|\s)>\s*([^\s&|;]+)/.exec(c.text)?.[1];
  if (p === 'base64' && args.some((a) => /^(?:-d|--decode|-D)$/.test(a)) && files[0] && redirect)
    return { from: files[0], to: redirect };
  return undefined;
}

/** A command that downloads something: its URL and the file it writes, when named. */
function download(c: Command): Download | undefined {
  const { prog, args } = programOf(c);
  const p = base(prog).replace(/\.exe$/, '');
  const text = c.text;
  const url = URL_RE.exec(text)?.[0];
  const redirect = /(?:^|\s)>\s*([^\s&|;]+)/.exec(text)?.[1];
  const flag = (names: RegExp) => {
    const i = args.findIndex((a) => names.test(a));
    return i >= 0 ? args[i + 1] : undefined;
  };
  if (p === 'curl') return { url, out: flag(/^(?:-[a-zA-Z]*o|--output)$/) ?? redirect, line: c.line };
  if (p === 'wget')
    return { url, out: flag(/^(?:-[a-zA-Z]*O|--output-document)$/) ?? redirect, line: c.line };
  if (/^(?:iwr|invoke-webrequest|invoke-restmethod|irm)$/.test(p))
    return { url, out: flag(/^-outfile$/i), line: c.line };
  // The destination is the last argument, redirections (`>nul 2>&1`) aside.
  const last = args.filter((a) => !/^\d?>/.test(a) && !/^>>?/.test(a)).at(-1);
  if (p === 'certutil' && /-urlcache/i.test(text)) return { url, out: last, line: c.line };
  if (p === 'bitsadmin' && /\/transfer/i.test(text)) return { url, out: last, line: c.line };
  // `Start-BitsTransfer -Source URL -Destination FILE` (or the two as positional arguments).
  if (p === 'start-bitstransfer') {
    const plain = args.filter((a) => !/^-/.test(a));
    return { url, out: flag(/^-destination$/i) ?? plain.find((a) => !URL_RE.test(a)), line: c.line };
  }
  if (/^(?:powershell|pwsh)$/.test(p) || /downloadfile|downloadstring|invoke-webrequest/i.test(text)) {
    const m = /downloadfile\(\s*['"]?([^'",\s]+)['"]?\s*,\s*['"]?([^'")]+?)['"]?\s*\)/i.exec(text);
    if (m) return { url: m[1], out: m[2], line: c.line };
    if (/downloadstring|invoke-webrequest|iwr\b/i.test(text)) return { url, line: c.line };
  }
  return undefined;
}

/**
 * A miner started under another name: a pool given as `-o host:port` with a wallet address as the
 * user (Monero, Ethereum, Bitcoin) or with a miner's own tuning flags.
 */
function minerCommand(text: string): boolean {
  if (!/(?:^|\s)(?:-o|--url)\s+\S+:\d{2,5}\b/.test(text)) return false;
  return (
    /(?:^|\s)(?:-u|--user)\s+['"]?(?:[48][0-9AB][1-9A-HJ-NP-Za-km-z]{93}|0x[0-9a-fA-F]{40}|(?:bc1|[13])[a-zA-HJ-NP-Z0-9]{25,59})\b/.test(
      text,
    ) || /(?:^|\s)(?:--cpu-priority|--max-cpu-usage|--randomx-\S+|--algo|-a\s+rx\/0|--coin)\b/.test(text)
  );
}

/** The URL a Windows program given it fetches and runs (mshta, regsvr32 /i:, msiexec /i, rundll32 monikers). */
function remoteRun(p: string, text: string): string | undefined {
  // Runtimes and package runners given an address instead of a file or a registry name: Deno
  // and Bun run a script by URL, npx / npm exec / pnpm dlx / yarn dlx fetch a tarball or a git
  // repository and run its program.
  if (/^(?:deno|bun|npx|pnpm|yarn|npm|bunx)$/i.test(p)) {
    // The program the runner starts is its first operand (past its subcommand and flags); an
    // address elsewhere on the line is an option's value (`--registry https://…`).
    const words = text.trim().split(/\s+/);
    let k = words.findIndex((w) => base(w) === p);
    if (k < 0) return undefined;
    k++;
    if (p === 'deno' && /^(?:run|eval|install)$/.test(words[k] ?? '')) k++;
    else if ((p === 'pnpm' || p === 'yarn') && words[k] === 'dlx') k++;
    else if (p === 'npm' && /^(?:exec|x)$/.test(words[k] ?? '')) k++;
    else if (p === 'deno' || p === 'pnpm' || p === 'yarn' || p === 'npm') return undefined;
    while (k < words.length && /^-/.test(words[k]!))
      k += /^--(?:package|registry|cache|config|import-map|cert|location|node-options)$/.test(words[k]!)
        ? 2
        : 1;
    const spec = words[k]?.replace(/^["']|["']$/g, '');
    return spec && /^(?:https?:\/\/|git\+(?:https?|ssh):\/\/|git:\/\/|github:|gitlab:|bitbucket:)/i.test(spec)
      ? spec
      : undefined;
  }
  if (!/^(?:mshta|regsvr32|msiexec|rundll32|wscript|cscript)$/i.test(p)) return undefined;
  const url = /(?:https?|ftp):\/\/[^\s"'`)]+/i.exec(text)?.[0];
  if (!url) return undefined;
  if (/^msiexec$/i.test(p) && !/\s[/-](?:i|package)\b/i.test(text)) return undefined;
  return url;
}

/** Files a command executes: the program itself, or the script given to an interpreter. */
function executed(c: Command): string[] {
  return executedPaths(c).map(base).filter(Boolean);
}

/** The paths a command runs, as written (see executed). */
function executedPaths(c: Command): string[] {
  const { prog, args } = programOf(c);
  const p = base(prog).replace(/\.exe$/, '');
  const out = [prog];
  if (/^(?:sh|bash|zsh|dash|python3?|node|perl|ruby|wscript|cscript|mshta|rundll32|regsvr32)$/.test(p)) {
    const script = args.find((a) => !a.startsWith('-'));
    if (script) out.push(script);
  }
  if (/^(?:powershell|pwsh)$/.test(p)) {
    const i = args.findIndex((a) => /^-f(?:ile)?$/i.test(a));
    if (i >= 0 && args[i + 1]) out.push(args[i + 1]!);
  }
  if (/^(?:start-process|saps|&|invoke-item)$/i.test(p) && args[0]) out.push(args[0]);
  // `IEX (Get-Content FILE -Raw)`, `Invoke-Expression (gc FILE)`: the file's text run as code.
  if (/^(?:iex|invoke-expression)$/i.test(p)) {
    const read =
      /\(\s*(?:get-content|gc|cat|type)\s+(?:-(?:path|literalpath)\s+)?(?:(['"])([^'"]+)\1|([^\s'")]+))/i.exec(
        c.text,
      );
    const file = read?.[2] ?? read?.[3];
    if (file) out.push(file);
  }
  // macOS `open [-g -j …] App.app` and cmd's `start [/b] ["title"] prog`: what they start.
  // (`open -a App x.command` names the program with -a; cmd's `start "Title" …` a window title
  // first. A document, `open notes.html`, is shown, not run: only runnable files count.)
  if (p === 'open' || /^start$/i.test(p)) {
    const words = args.filter((a, i) => !(p === 'open' && /^-[ab]$/.test(args[i - 1] ?? '')));
    const plain = words.filter((a) => !/^-|^\/[a-z]+$/i.test(a) && a !== '""');
    const target = /^start$/i.test(p) && plain.length > 1 && /^["']/.test(plain[0]!) ? plain[1] : plain[0];
    if (
      target &&
      /(?:\.(?:app|command|pkg|dmg|sh|exe|bat|cmd|ps1|vbs|js|jar|scr|msi|lnk)|\/[^./\\]+)["']?$/i.test(target)
    )
      out.push(target);
  }
  return out;
}

/** A path as compared between commands: no quotes, forward slashes, lower case, no trailing slash. */
const pathKey = (p: string) =>
  p
    .replace(/^["']|["']$/g, '')
    .replace(/\\/g, '/')
    .replace(/\/+$/, '')
    .toLowerCase();
/** A path as pathKey reads it, relative ones without their `./` (`./dir/x` is `dir/x`). */
const relKey = (p: string) => pathKey(p).replace(/^(?:\.\/)+(?=.)/, '');

/** An archive unpacked by a command (tar -x, unzip, Expand-Archive, 7z x): the archive and the folder. */
function extraction(c: Command): { archive: string; dir: string } | undefined {
  const { prog, args } = programOf(c);
  const p = base(prog).replace(/\.exe$/, '');
  const after = (names: RegExp) => {
    const i = args.findIndex((a) => names.test(a));
    return i >= 0 ? args[i + 1] : undefined;
  };
  const plain = args.filter((a) => !/^-/.test(a));
  if (p === 'tar' && args.some((a) => /^-?[a-zA-Z]*x[a-zA-Z]*$/.test(a))) {
    // (No archive named, or `-f -`: tar reads the archive piped into it.)
    const archive =
      args.find((a) => /\.(?:zip|tar|tgz|gz|bz2|xz|7z)["']?$/i.test(a)) ?? after(/^-?[a-zA-Z]*f$/) ?? '-';
    return { archive, dir: after(/^(?:-C|--directory)$/) ?? '' };
  }
  if (p === 'unzip' && plain[0]) return { archive: plain[0], dir: after(/^-d$/) ?? '' };
  if (/^(?:expand-archive)$/i.test(p)) {
    const archive = after(/^-(?:literal)?path$/i) ?? plain[0];
    return archive ? { archive, dir: after(/^-destinationpath$/i) ?? plain[1] ?? '' } : undefined;
  }
  // macOS: `ditto -x -k archive.zip dir`.
  if (p === 'ditto' && args.some((a) => /^-[a-zA-Z]*x/.test(a)) && plain[0])
    return { archive: plain[0], dir: plain[1] ?? '' };
  if (/^7za?$/.test(p) && args[0] === 'x' && args[1])
    return { archive: args[1], dir: args.find((a) => /^-o/.test(a))?.slice(2) ?? '' };
  return undefined;
}

/**
 * The download piped into a command (`curl -fsSL "$u" | tar -xzf - -C dir`), through up to two
 * filters (`| gunzip |`).
 */
function streamedDownload(c: Command, cmds: readonly Command[]): Download | undefined {
  let at = c;
  for (let hops = 0; hops < 3; hops++) {
    const from = cmds.find((o) => o.pipedTo === at);
    if (!from) return undefined;
    const d = download(from);
    if (d) return d;
    at = from;
  }
  return undefined;
}

/**
 * Shell built-ins and file utilities: running them is the script itself, not a program worth
 * naming as a capability (every script would "start processes").
 */
const PLAIN_PROGRAMS =
  /^(?:echo|printf|cd|pushd|popd|mkdir|md|rmdir|cp|copy|xcopy|mv|move|rm|del|erase|ln|chmod|chown|touch|cat|type|test|\[|\[\[|true|false|exit|export|set|setlocal|endlocal|unset|read|sleep|pwd|dirname|basename|head|tail|grep|sed|awk|tr|cut|sort|uniq|wc|find|xargs|which|where|if|then|else|elif|fi|for|do|done|while|case|esac|return|local|shift|source|:|continue|break|wait|trap|umask|shopt|let|hash|rem|goto|exit\/b|write-host|write-output|set-location|new-item|copy-item|remove-item|test-path|get-content|set-content|out-null|import|from|def|print)$/i;

/** What a script's commands can do, as capabilities: the programs it runs, and the hosts it reaches. */
function recordCapabilities(cmds: readonly Command[], caps: CapabilityCollector): void {
  for (const c of cmds) {
    if (/^\s*#!/.test(c.text)) continue;
    // (`. ./lib/env.sh` reads a file into the script: the file's commands are its own.)
    if (c.words[0] === '.') continue;
    const { prog } = programOf(c);
    const name = base(prog);
    // (`command -v cc` looks a program up: no program of its own.)
    if (!name || /^[$%-]/.test(name) || PLAIN_PROGRAMS.test(name)) continue;
    caps.spawns = true;
    caps.addCommand(name);
    const urls = [...c.text.matchAll(new RegExp(URL_RE.source, 'gi'))].map((m) => m[0]);
    if (NET_SEND.test(name) || urls.length > 0) {
      caps.makesRequests = true;
      for (const url of urls) caps.addUrl(url);
    }
  }
}

const ENV_DUMP = /^(?:env|printenv|set|export|declare|get-childitem|gci|dir|ls)$/i;
const INTERACTIVE_SHELL = /^(?:sh|bash|zsh|dash|ksh|ash|\/bin\/sh|\/bin\/bash)$/i;
/** Tools that carry a pipeline's bytes to or from another host. */
const PIPE_NET = /^(?:nc|ncat|netcat|socat|telnet|openssl|cryptcat|pwncat)$/i;

/**
 * A command that prints a credential run inside a command substitution (`$(…)` at any depth, or
 * backquotes) of a command line: the credential it prints, if any. Parentheses are matched and
 * quotes skipped, so a substitution holding a `sed -E 's#(a|b)#\1#'` still encloses what follows
 * it; each outermost substitution is tested once.
 */
function substitutedCredential(text: string): string | undefined {
  for (const span of substitutions(text)) {
    const printed = PRINTS_CREDENTIAL.exec(span)?.[0];
    if (printed) return printed;
  }
  return undefined;
}

/** The outermost `$(…)` and backquoted substitutions of a command line (see substitutionEnd). */
function substitutions(text: string): string[] {
  const out: string[] = [];
  for (let i = text.indexOf('$('); i >= 0; i = text.indexOf('$(', i)) {
    const end = substitutionEnd(text, i + 1);
    out.push(text.slice(i + 2, end - 1));
    i = end;
  }
  for (const m of text.matchAll(/`([^`]*)`/g)) out.push(m[1]!);
  return out;
}

/** Commands whose output is a credential (CLI tokens, a checkout's persisted auth header, keychain items). */
export const PRINTS_CREDENTIAL =
  /\bgh\s+auth\s+token\b|\bgcloud\s+auth\s+print-(?:access|identity)-token\b|\baz\s+account\s+get-access-token\b|\baws\s+(?:configure\s+export-credentials|sts\s+get-session-token|ecr\s+get-login-password)\b|\bgit\s+config\s+[^|;&\n]{0,200}?\bhttp\.\S{0,300}?extraheader\b|\bgit\s+credential\s+fill\b|\bsecurity\s+find-(?:generic|internet)-password\b[^|;&\n]{0,300}?\s-[a-z]*w[a-z]*\b|\bsecurity\s+dump-keychain\b[^|;&\n]{0,300}?\s-[a-z]*d|\bdisplay\s+dialog\b[^|;&\n]{0,500}?\bwith\s+hidden\s+answer\b/i;

const NET_SEND =
  /^(?:curl|wget|nc|ncat|netcat|socat|iwr|invoke-webrequest|invoke-restmethod|irm|telnet|nslookup|dig|host|scp|sftp|ftp|tftp|lftp|ping|ping6)$/i;
/** rsync to another machine (`user@host:path`, `host::module`, `rsync://`), not a local copy. */
const rsyncRemote = (c: { words: string[] }) =>
  base(c.words[0] ?? '') === 'rsync' &&
  c.words.some((w) => /^[\w.-]+@[\w.-]+:|^rsync:\/\/|^[\w.-]+::/.test(w));

/**
 * A copy to another machine's share (`copy x \\host\share\`, `robocopy`, `Copy-Item -Destination
 * \\host\c$`): a UNC path past the first word, not a device (`\\.\`) or long-path (`\\?\`)
 * prefix. (The shell's word reader takes `"\\` in quotes as one backslash: a first part with a
 * dot, an address or a domain, still names a host.)
 */
const uncCopy = (c: { words: string[] }) =>
  /^(?:copy|xcopy|robocopy|copy-item|cpi|move|move-item|cp)$/i.test(base(programOf(c as Command).prog)) &&
  c.words
    .slice(1)
    .some((w) => /^["']?(?:(?:\\\\|\/\/)(?![.?][\\/])[\w.-]+|\\[\w-]+(?:\.[\w-]+)+)[\\/][^\\/\s]+/.test(w)) &&
  // (What it copies is the user's, from their profile: a deploy copies the project's own files.)
  /%(?:USERPROFILE|LOCALAPPDATA|APPDATA|HOMEPATH)%|\$env:(?:USERPROFILE|LOCALAPPDATA|APPDATA)|\$\{?HOME\b|(?:^|[\s"'])~[\\/]|[A-Za-z]:[\\/]Users[\\/]/i.test(
    c.words.slice(1).join(' '),
  );

/** A variable referenced in a command: `$X`, `${X}`, `%X%`, `$env:X`. */
// `$env:NAME` first: the shell form would read it as a variable named `env`.
const VAR_REF = /\$env:([A-Za-z_]\w*)|\$\{?([A-Za-z_]\w*|[1-9@*])\}?|%([A-Za-z_]\w*)%/gi;
/** Names that say a variable holds a secret (tokens, keys, passwords, wallet phrases). */
const SECRET_NAME =
  /(?:TOKEN|SECRET|PASSW(?:OR)?D|API_?KEY|ACCESS_?KEY|PRIVATE_?KEY|AUTH|CREDENTIAL|MNEMONIC|SEED_?PHRASE)/i;
/** Names of where a request goes, not of what it carries (`$SLACK_WEBHOOK_URL`, `$API_HOST`). */
const DESTINATION_NAME = /(?:URL|URI|ENDPOINT|HOST|WEBHOOK|DOMAIN|SERVER)$/i;
/** Flags whose next argument is the request's body. */
const DATA_FLAG = /^(?:-d|--data(?:-\w+)?|-F|--form|--post-data|--body-data|-Body|--json)$/i;
/**
 * A secret passed as the request's own credential: an authorisation-style header or `-u user:pass`.
 * Calling an API with its token is what the token is for; the header's name must say so.
 */
const CREDENTIAL_ARG =
  /(?:-H|--header)\s*=?\s*(["']?)(?:authorization|[\w-]*(?:token|api-?key|auth)[\w-]*)\s*:[^"'\n]*\1|(?:-u|--user)\s+\S+|-Headers\s+@\{[^}]*\}/gi;

/** git's subcommand after its global options (`git -C dir -c k=v push`). */
function gitSubcommand(args: readonly string[]): string | undefined {
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (/^(?:-C|-c|--git-dir|--work-tree|--namespace)$/.test(a)) i++;
    else if (!a.startsWith('-')) return a;
  }
  return undefined;
}

/** A command's words without redirections (`> f`, `>> f`, `2>&1`). */
function unredirected(ws: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < ws.length; i++) {
    const w = ws[i]!;
    if (/^\d?>>?$|^\d?<$/.test(w)) i++;
    else if (!/^\d?>>?\S|^\d?>&\d$|^<\S/.test(w)) out.push(w);
  }
  return out;
}

/** `env`, `printenv`, `set`, `export -p`, `Get-ChildItem env:`: the whole environment printed. */
function dumpsEnvironment(c: Command): boolean {
  const ws = unredirected(c.words);
  const first = base(ws[0] ?? '');
  const p = base(programOf({ ...c, words: ws }).prog).replace(/\.exe$/, '');
  const args = ws.slice(1);
  return (
    (first === 'env' && ws.length === 1) ||
    // `echo "$(env)"`, `printf '%s' "`printenv`"`: the dump printed through a substitution.
    (/^(?:echo|printf)$/.test(p) &&
      /\$\(\s*(?:env|printenv|export\s+-p)\s*\)|`\s*(?:env|printenv)\s*`/.test(c.text)) ||
    (ENV_DUMP.test(p) &&
      p !== 'env' &&
      (p !== 'set' || !args.length) &&
      (p !== 'ls' || /env:/i.test(args.join(' '))))
  );
}

/** The secret variables a network command sends (not as its own credential). */
function sentSecrets(c: Command, known: ReadonlySet<string> | undefined, request = true): string[] {
  const out = new Set<string>();
  // In a request, a variable that is a whole argument of its own is where the request goes (its
  // URL or host), unless a body flag precedes it; named like a destination, it is one wherever
  // it sits.
  const whole = new Set<string>();
  if (request)
    c.words.forEach((w, i) => {
      const m = /^(?:\$\{?([A-Za-z_]\w*)\}?|%([A-Za-z_]\w*)%|\$env:([A-Za-z_]\w*))$/.exec(w);
      if (m && !DATA_FLAG.test(c.words[i - 1] ?? '')) whole.add(m[1] ?? m[2] ?? m[3] ?? '');
    });
  for (const m of c.text.replace(CREDENTIAL_ARG, ' ').matchAll(VAR_REF)) {
    const name = m[1] ?? m[2] ?? m[3] ?? '';
    if (whole.has(name) || DESTINATION_NAME.test(name)) continue;
    if (known?.has(name) || SECRET_NAME.test(name)) out.add(name);
  }
  return [...out];
}

/**
 * Paths whose recursive deletion or overwrite destroys the user's data rather than the package's
 * own files: the home folder itself or its well-known data folders, the file-system or a drive
 * root, system folders, the folder npm was started from (`$INIT_CWD`) or a climb out of the
 * package (`../..`). A tool's own cache under home (`~/.cache/tool`) is not one of them.
 */
const HOME_RE = String.raw`(?:~|\$HOME|\$\{HOME\}|%USERPROFILE%|%HOMEPATH%|%HOMEDRIVE%%HOMEPATH%|\$env:USERPROFILE|\$env:HOME|\$HOME\$|/home/[^/\s]+|/Users/[^/\s]+|[A-Za-z]:[\\/]Users[\\/][^\\/\s]+)`;
const USER_DATA_RE = new RegExp(
  String.raw`^(?:` +
    String.raw`${HOME_RE}(?:[\\/]+(?:\*|\.\*|Documents|Desktop|Downloads|Pictures|Music|Videos|OneDrive|projects?|Projects?|src|code|repos?|workspace|dev|work|git|\.ssh|\.gnupg|\.aws|\.kube|\.config|\.local|AppData|Library)?)?[\\/]*\*?` +
    String.raw`|/\*?|/(?:home|Users|root|etc|var|usr|opt|srv|mnt|media|boot|var/lib/\w+)[\\/]*\*?` +
    String.raw`|[A-Za-z]:[\\/]*\*?(?:\.\*)?|[A-Za-z]:[\\/](?:Users|Windows|ProgramData)[\\/]*\*?` +
    String.raw`|(?:\$INIT_CWD|%INIT_CWD%|\$env:INIT_CWD)(?:[\\/]+(?!node_modules\b)\S*)?` +
    String.raw`|(?:\.\.[\\/]+){2,}\*?|(?:\.\.[\\/]+){2,}\.\.|\.\.[\\/]*\*?` +
    String.raw`)$`,
  'i',
);

/** Whether a path (after substitution; a word may hold a list of paths) names user data. */
export function isUserDataPath(path: string): boolean {
  return path
    .split(/\s+/)
    .map((p) => p.replace(/^["'(]+|["'),;]+$/g, ''))
    .some((p) => p && USER_DATA_RE.test(p));
}

/** Caches and temporary folders: a tool may fill or clear them whenever it likes. */
const SCRATCH =
  /(?:^|[\\/])(?:\.cache|\.npm|\.node-gyp|\.pnpm-store|tmp|temp|Temp|Library[\\/]Caches)(?:[\\/]|$)|\$\{?TMPDIR\b|%TE?MP%|\$env:TE?MP\b/i;
/** Programs, libraries and machine-wide settings. */
export const SYSTEM_PATH =
  /^(?:\/(?:etc|usr|bin|sbin|lib|lib64|boot|System|Library|Applications)\/|[A-Za-z]:[\\/](?:Windows|Program Files)\b|%(?:WINDIR|SystemRoot|ProgramFiles|ProgramData)%|\$env:(?:WINDIR|SystemRoot|ProgramFiles|ProgramData)\b)/i;
const HOME_START = new RegExp(
  String.raw`^${HOME_RE}(?:[\\/]|$)|^%(?:APPDATA|LOCALAPPDATA)%|^\$env:(?:APPDATA|LOCALAPPDATA)\b`,
  'i',
);

const HOME_PREFIX = new RegExp(
  String.raw`^(?:${HOME_RE}|%(?:APPDATA|LOCALAPPDATA)%|\$env:(?:APPDATA|LOCALAPPDATA)\b)(?=[\\/]|$)`,
  'i',
);

/**
 * A path with its home-folder prefix written as `~` (`C:\Users\<name>`, `/home/<name>`, `$HOME`,
 * `%USERPROFILE%`; `%APPDATA%` as `~/AppData/Roaming`), so that one set of rules reads them all.
 */
export function homeForm(path: string): string {
  return path.replace(HOME_PREFIX, (m) =>
    /APPDATA/i.test(m) ? (/LOCAL/i.test(m) ? '~/AppData/Local' : '~/AppData/Roaming') : '~',
  );
}

/**
 * Whether a path a script changes belongs to someone else: the user's home (not its caches), the
 * system, the project above the package, or a drive. A word may hold a list of paths.
 */
export function isForeignPath(path: string): boolean {
  return path
    .split(/\s+/)
    .map((p) => p.replace(/^["'(]+|["'),;]+$/g, ''))
    .some(
      (p) =>
        !!p &&
        !/^\/dev\/|^nul$|^\$null$/i.test(p) &&
        !SCRATCH.test(p) &&
        // npm runs install steps in the package's folder: `../` leaves it (other packages, the project).
        (HOME_START.test(p) || SYSTEM_PATH.test(p) || USER_DATA_RE.test(p) || /^\.\.[\\/]/.test(p)),
    );
}

/** A changed path as a message shows it: one built from a command's output by where it ends. */
function shownPath(path: string): string {
  const p = path.replace(/^["']|["']$/g, '');
  if (!/\$\(|`/.test(p)) return p.slice(0, 60);
  return `files under the paths a command finds (…/${p.split(/[\\/]/).slice(-2).join('/').slice(0, 40)})`;
}

/** The paths a command writes, deletes or moves into (redirections included), and whether it removes them. */
function changedPaths(c: Command): { path: string; removes: boolean }[] {
  const out: { path: string; removes: boolean }[] = [];
  for (let i = 0; i < c.words.length; i++) {
    const w = c.words[i]!;
    const glued = /^\d?>>?(?!&)(\S+)$/.exec(w);
    if (/^\d?>>?$/.test(w) && c.words[i + 1]) out.push({ path: c.words[++i]!, removes: false });
    else if (glued) out.push({ path: glued[1]!, removes: false });
  }
  const { prog, args } = programOf(c);
  const p = base(prog).replace(/\.exe$/, '');
  const plain = unredirected(args).filter((a) => !/^-/.test(a) && !/^\/[a-z]$/i.test(a));
  if (/^(?:rm|rmdir|del|erase|rd|shred|srm|wipe|unlink|truncate|remove-item|ri)$/i.test(p))
    for (const path of plain) out.push({ path, removes: true });
  else if (
    p === 'find' &&
    /\s-delete\b|-exec(?:dir)?\s+(?:rm|shred|truncate|tee|dd|cp|mv)\b|-exec(?:dir)?\s+(?:ba|z|da)?sh\s+-c\s+\S*[^-]>/.test(
      c.text,
    ) &&
    plain[0]
  )
    out.push({ path: plain[0], removes: /\s-delete\b|-exec(?:dir)?\s+(?:rm|shred|mv)\b/.test(c.text) });
  else if (p === 'tee') for (const path of plain) out.push({ path, removes: false });
  else if (
    /^(?:cp|mv|install|ln|copy|move|xcopy|robocopy|copy-item|move-item|cpi|mi)$/i.test(p) &&
    plain.length >= 2
  )
    out.push({ path: plain[plain.length - 1]!, removes: /^(?:mv|move|move-item|mi)$/i.test(p) });
  else if (/^(?:set-content|add-content|out-file|sc|ac)$/i.test(p)) {
    const i = args.findIndex((a) => /^-(?:path|filepath|literalpath)$/i.test(a));
    const path = i >= 0 ? args[i + 1] : plain[0];
    if (path) out.push({ path, removes: false });
  }
  return out;
}

/** The first path a command line (run from code) changes that the package does not own. */
export function foreignChangeOf(text: string): { path: string; removes: boolean } | undefined {
  for (const l of logicalLines(text.slice(0, 20_000), 'sh'))
    for (const c of commands(l.line, l.text)) {
      const x = changedPaths(c).find((y) => isForeignPath(y.path));
      if (x) return { path: x.path.replace(/^["']|["']$/g, ''), removes: x.removes };
    }
  return undefined;
}

/** Cloud, cluster, container and database resources a command deletes wholesale. */
function destroyedService(c: Command): string | undefined {
  const t = c.text;
  if (/\baws\s+s3\s+(?:rb\s+\S+[^\n]*--force|rm\s+s3:\/\/\S*[^\n]*--recursive)/.test(t))
    return 'S3 buckets and their objects';
  if (
    /\baws\s+(?:ec2\s+terminate-instances|rds\s+delete-db-instance|dynamodb\s+delete-table|iam\s+delete-)/.test(
      t,
    )
  )
    return 'cloud resources';
  if (/\bgcloud\s+[\w\s-]*\bdelete\b[^\n]*(?:--quiet|-q)\b/.test(t)) return 'cloud resources';
  if (/\baz\s+group\s+delete\b[^\n]*(?:--yes|-y)\b/.test(t)) return 'cloud resource groups';
  if (/\bkubectl\s+delete\s+(?:ns|namespaces?|all|pvc|pv|deployments?)\b[^\n]*--all\b/.test(t))
    return 'cluster resources';
  if (
    /\bdocker\s+(?:system|volume)\s+prune\b[^\n]*(?:-a|--all|--volumes|-f|--force)\b/.test(t) &&
    /--volumes|\svolume\s/.test(t)
  )
    return 'container volumes';
  if (/\bterraform\s+destroy\b[^\n]*-auto-approve/.test(t)) return 'the infrastructure Terraform manages';
  if (/\bredis-cli\b[^\n]*\bflushall\b|\bdropdb\s|\bdb\.dropDatabase\s*\(/i.test(t)) return 'databases';
  return undefined;
}

/** A disk or partition a command overwrites or formats: `dd of=/dev/sda`, `mkfs`, `wipefs`, `format C:`. */
function wipedDevice(c: Command): string | undefined {
  const { prog, args } = programOf(c);
  const p = base(prog).replace(/\.exe$/, '');
  const DISK = /^\/dev\/(?:sd|hd|vd|xvd|nvme|mmcblk|disk|rdisk|md|dm-|mapper\/|\$|\$\{)/;
  if (p === 'dd') {
    const of = args.find((a) => /^of=/.test(a))?.slice(3);
    return of && DISK.test(of) ? of : undefined;
  }
  if (/^(?:mkfs(?:\.\w+)?|wipefs|blkdiscard|shred)$/.test(p)) return args.find((a) => DISK.test(a));
  if (
    /^(?:format|format-volume|clear-disk)$/i.test(p) &&
    args.some((a) => /^[A-Za-z]:$|^-(?:DriveLetter|Number)$/i.test(a))
  )
    return args.find((a) => /^[A-Za-z]:$/.test(a)) ?? 'a volume';
  return undefined;
}

/** The paths a command destroys (recursive delete, wipe, overwrite), when it is such a command. */
function destroyedPaths(c: Command, dialect: ScriptDialect): string[] | undefined {
  const { prog, args } = programOf(c);
  const p = base(prog).replace(/\.exe$/, '');
  const plain = args.filter((a) => !/^-/.test(a) && !/^\/[a-z]$/i.test(a));
  const flags = args.filter((a) => /^-/.test(a) || /^\/[a-z]$/i.test(a)).join(' ');
  if (
    dialect !== 'powershell' &&
    (p === 'rm' || p === 'rmdir') &&
    /(?:^|\s)-[a-z]*r|--recursive/i.test(flags)
  )
    return plain;
  if (p === 'find' && /(?:^|\s)-delete\b|-exec\s+(?:rm|shred|truncate)\b/.test(c.text))
    return plain.slice(0, 1);
  if (/^(?:shred|wipe|srm|cipher)$/.test(p)) return plain;
  if (dialect === 'batch' || /^(?:rd|rmdir|del|erase)$/.test(p)) {
    if (/^(?:rd|rmdir)$/.test(p) && /\/s\b/i.test(flags)) return plain;
    if (/^(?:del|erase)$/.test(p) && /\/[sq]\b/i.test(flags)) return plain;
  }
  if (/^(?:remove-item|ri|rm|del|rmdir|rd)$/i.test(p) && /-r(?:ecurse)?\b/i.test(flags)) {
    const i = args.findIndex((a) => /^-(?:path|literalpath)$/i.test(a));
    return i >= 0 && args[i + 1] ? [args[i + 1]!] : plain;
  }
  if (
    /^(?:get-childitem|gci|dir|ls)$/i.test(p) &&
    /\bremove-item\b|\|\s*(?:ri|rm|del)\b/i.test(c.pipedTo?.text ?? '')
  )
    return plain;
  return undefined;
}

/**
 * Python import aliases written back to full names (`import subprocess as s` → `s.Popen` reads
 * `subprocess.Popen`; `from os import system` → `system(` reads `os.system(`), so the rules match
 * however the modules were imported.
 */
function pyUnalias(lines: { line: number; text: string }[]): { line: number; text: string }[] {
  const aliases = new Map<string, string>();
  for (const l of lines) {
    const imp = /^\s*import\s+(.+)$/.exec(l.text);
    if (imp)
      for (const part of imp[1]!.split(',')) {
        const m = /^\s*([\w.]+)\s+as\s+(\w+)\s*$/.exec(part);
        if (m) aliases.set(m[2]!, m[1]!);
      }
    const from = /^\s*from\s+([\w.]+)\s+import\s+(.+)$/.exec(l.text);
    if (from)
      for (const part of from[2]!.replace(/[()]/g, '').split(',')) {
        const m = /^\s*(\w+)(?:\s+as\s+(\w+))?\s*$/.exec(part);
        if (m) aliases.set(m[2] ?? m[1]!, `${from[1]}.${m[1]}`);
      }
    if (aliases.size > 50) break;
  }
  if (!aliases.size) return lines;
  return lines.map((l) =>
    /^\s*(?:from|import)\s/.test(l.text)
      ? l
      : { ...l, text: l.text.replace(/(?<![\w.])(\w+)(?=\s*[.(])/g, (w) => aliases.get(w) ?? w) },
  );
}

function pyHits(raw: { line: number; text: string }[], installTime: boolean): ScriptHit[] {
  const lines = pyUnalias(raw);
  const hits: ScriptHit[] = [];
  const all = lines.map((l) => l.text).join('\n');
  const find = (re: RegExp) => lines.find((l) => re.test(l.text));
  const dl = find(
    /\burl(?:retrieve|open)\s*\(|\b(?:requests|httpx)\.(?:get|post)\s*\(|\burllib\d?\b.*\bRequest\b|\bwget\.download\s*\(|\bhttp\.client\.HTTPS?Connection\s*\(/,
  );
  // urlretrieve and wget.download write the file themselves; otherwise a binary write follows.
  const wb = find(/\bopen\s*\([^)]*['"][wa]b['"]|\burlretrieve\s*\(\s*[^,)]+,|\bwget\.download\s*\(/);
  const run = find(
    /\b(?:subprocess\.(?:run|call|Popen|check_output|check_call)|os\.(?:system|popen|startfile|exec\w*))\s*\(/,
  );
  const evalDecoded = find(
    /\bexec\s*\(\s*(?:base64\.b64decode|zlib\.decompress|bytes\.fromhex|codecs\.decode)/,
  );
  // Code or a shell command fetched and run in one expression: exec(urlopen(u).read()),
  // subprocess.run(['bash', '-c', requests.get(u).text]), os.system(requests.get(u).text).
  const FETCHED = String.raw`(?:urllib\.request\.)?urlopen\s*\(|\b(?:requests|httpx)\.get\s*\(`;
  // Names holding what was fetched (`code = urlopen(u).read().decode()`), a few assignments deep.
  const fetchedNames: string[] = [];
  for (const l of lines) {
    const m = /^\s*([A-Za-z_]\w*)\s*=\s*(.+)$/.exec(l.text);
    if (
      m &&
      fetchedNames.length < 20 &&
      (new RegExp(FETCHED).test(m[2]!) || fetchedNames.some((n) => new RegExp(`\\b${n}\\b`).test(m[2]!)))
    )
      fetchedNames.push(m[1]!);
  }
  const fetchedExpr = fetchedNames.length ? `${FETCHED}|\\b(?:${fetchedNames.join('|')})\\b` : FETCHED;
  const runsFetched = find(
    new RegExp(
      String.raw`\b(?:exec|eval)\s*\([^\n]*(?:${fetchedExpr})|\b(?:subprocess\.(?:run|call|Popen|check_output|check_call)|os\.(?:system|popen))\s*\([^\n]*(?:${fetchedExpr})`,
    ),
  );
  // (`socket.create_connection((host, port))` makes and connects one in a call; counted when a
  // shell is what the socket is handed: a daemon sends metrics with it and points its own output
  // at /dev/null with dup2.)
  const sock =
    (/\bsocket\.socket\s*\(/.test(all) && /\.connect\s*\(/.test(all)) ||
    (/(?<![\w.])(?:socket\.)?create_connection\s*\(/.test(all) &&
      !/\.\s*create_connection\s*\(/.test(all.replace(/\bsocket\.create_connection/g, '')) &&
      /\bpty\.spawn\s*\(|["']\/bin\/(?:ba|z|da)?sh["']|environ(?:\.get\(|\[)\s*["']SHELL["']/.test(all));
  const shellOverSocket =
    /\bpty\.spawn\s*\(|\bos\.dup2\s*\(|\bsubprocess\.\w+\([^)]*stdin\s*=\s*\w*sock/.test(all);
  const envOut = find(/\bos\.environ\b/) && (dl || /\.post\s*\(/.test(all));
  // Another process's memory read through /proc/<pid>/mem (secrets scraped from a CI runner or
  // a password manager): the maps file gives the readable regions.
  const memRead =
    /\/proc\//.test(all) && /['"/]mem['"]|\/mem\b/.test(all) && /\bmaps\b/.test(all)
      ? find(/\/mem\b|['"]mem['"]/)
      : undefined;
  // shutil.rmtree / os.remove over the home folder, a drive or the file-system root.
  const homeExpr =
    /os\.path\.expanduser\(\s*['"]~['"]\s*\)|Path\.home\(\)|os\.environ(?:\.get\(|\[)\s*['"](?:HOME|USERPROFILE)['"]|['"](?:\/|[A-Za-z]:\\\\|~)['"]/;
  const homeVars = new Set<string>();
  for (const l of lines) {
    // `x = <home>`, and a loop over what is under it (`for d in (home / "projects").glob(…):`).
    const m =
      /^\s*([A-Za-z_]\w*)\s*=\s*(.+)$/.exec(l.text) ??
      /^\s*for\s+([A-Za-z_]\w*)\s+in\s+(.+):\s*$/.exec(l.text);
    if (m && (homeExpr.test(m[2]!) || [...homeVars].some((v) => new RegExp(`\\b${v}\\b`).test(m[2]!))))
      homeVars.add(m[1]!);
  }
  const mentionsHome = (t: string) =>
    homeExpr.test(t) || [...homeVars].some((v) => new RegExp(`\\b${v}\\b`).test(t));
  const wipe = lines.find(
    (l) =>
      (/\bshutil\.rmtree\s*\(/.test(l.text) && mentionsHome(l.text.slice(l.text.indexOf('rmtree')))) ||
      (/\bos\.walk\s*\(/.test(l.text) && mentionsHome(l.text)),
  );
  const walkDestroys =
    /\bos\.walk\s*\(/.test(all) &&
    /\b(?:os\.(?:remove|unlink)|shutil\.rmtree)\s*\(|\bopen\s*\((?:[^()]|\([^()]*\))*,\s*(?:mode\s*=\s*)?['"][wa]|\.write_(?:text|bytes)\s*\(/.test(
      all,
    );
  const wiper = wipe && (/rmtree/.test(wipe.text) || walkDestroys) ? wipe : undefined;
  const install = installTime ? 'install' : undefined;
  const push = (
    rule: RuleId,
    type: ThreatType,
    message: string,
    at = lines[0],
    level: ConfidenceQuery = { variant: install },
  ) => hits.push(scriptHit(rule, type, message, at?.line ?? 1, at?.text ?? '', level));
  if (dl && wb && run)
    push(
      'script.download-execute',
      'install_script_injection',
      'downloads a file, writes it and runs a program',
      run,
      { variant: installTime ? 'pythonInstall' : 'python' },
    );
  if (evalDecoded) push('script.eval-decoded', 'malicious_code', 'executes decoded code', evalDecoded);
  if (runsFetched && !(dl && wb && run))
    push(
      'script.download-execute',
      'install_script_injection',
      'downloads code or a command and runs it',
      runsFetched,
      { variant: installTime ? 'pythonInstall' : 'python' },
    );
  if (sock && shellOverSocket)
    push('shell.reverse-shell', 'malicious_code', 'connects a shell to a socket (reverse shell)');
  if (memRead)
    push(
      'script.process-memory-read',
      'data_exfiltration',
      "reads another process's memory through /proc/<pid>/mem (secret scraping)",
      memRead,
    );
  // An install step that changes files under the user's home (see isForeignPath).
  const changes = installTime
    ? lines.find(
        (l) =>
          /\b(?:shutil\.(?:rmtree|move|copy(?:file|tree|2)?)|os\.(?:remove|unlink|rename|replace|rmdir|removedirs)|\.(?:write_text|write_bytes|unlink|rmdir))\s*\(|\bopen\s*\((?:[^()]|\([^()]*\))*,\s*(?:mode\s*=\s*)?['"][wa]/.test(
            l.text,
          ) &&
          mentionsHome(l.text) &&
          !/\.cache\b|tmp|temp/i.test(l.text),
      )
    : undefined;
  if (changes)
    push(
      'script.foreign-file-change',
      'install_script_injection',
      "changes files under the user's home, which the package does not own, while it installs",
      changes,
    );
  if (wiper)
    push(
      'script.destructive',
      'malicious_code',
      'deletes or overwrites the files of the home folder or a whole drive',
      wiper,
    );
  if (envOut)
    push(
      'script.env-exfil',
      'data_exfiltration',
      'sends the environment over the network',
      find(/\bos\.environ\b/),
      { variant: installTime ? 'pythonInstall' : 'python' },
    );
  // A credential or key file opened (or globbed) and something sent out: the file goes with it.
  const home = (t: string) =>
    t
      .replace(/os\.path\.expanduser\(\s*(['"])~?([^'"]*)\1\s*\)/g, '"~$2"')
      .replace(/Path\.home\(\)\s*\/\s*/g, '~/');
  const READS =
    /\bopen\s*\(|\.read_(?:text|bytes)\s*\(|\bglob\.glob\s*\(|\bshutil\.(?:make_archive|copy\w*)\s*\(/;
  const secretOpen =
    lines.find((l) => READS.test(l.text) && SENSITIVE_PATH.test(home(l.text))) ??
    // (Paths kept in a list or a table and joined to the home folder where they are opened: the
    // list is what is read, unless the script only writes there, as a setup step does.)
    (lines.some((l) => READS.test(l.text) && !/['"][wa]b?\+?['"]|\.write_(?:text|bytes)/.test(l.text)) &&
    !/\.write\s*\(|\.write_(?:text|bytes)\s*\(|\bmkdir\b/.test(all)
      ? lines.find((l) => /['"]/.test(l.text) && SENSITIVE_PATH.test(home(l.text)))
      : undefined);
  // A request, a mail, a socket send, or a program that carries data out (`ping -p`, curl, dig).
  const pySends = find(
    /\b(?:requests|httpx)\.(?:post|put|patch)\s*\(|\burlopen\s*\([^)]*,|\bRequest\s*\([^)]*data\s*=|\bsmtplib\.|\bftplib\.|\.sendall?\s*\(|\.sendto\s*\(|\.storbinary\s*\(|\b(?:subprocess\.(?:run|call|Popen|check_output|check_call)|os\.(?:system|popen))\s*\(\s*\[?\s*f?['"](?:[\w./-]*\/)?(?:nc|ncat|ping6?|nslookup|dig|host|scp|sftp|ftp|tftp)\b|\b(?:subprocess\.(?:run|call|Popen|check_output|check_call)|os\.(?:system|popen))\s*\(\s*\[?\s*f?['"](?:[\w./-]*\/)?(?:curl|wget)\b[^\n]*['"\s](?:-d|--data[\w-]*|-F|--form|-T|--upload-file|--post-data|--post-file)\b/,
  );
  if (secretOpen && pySends)
    push(
      'script.secret-file-exfil',
      'data_exfiltration',
      'reads credential or key files and sends them over the network',
      pySends,
    );
  // A shell command line given as a literal to os.system / os.popen / subprocess (shell=True or
  // ['sh', '-c', …]): read by the shell rules, as a lifecycle script's would be.
  for (const l of lines) {
    if (
      !/\b(?:os\.(?:system|popen)|subprocess\.(?:run|call|Popen|check_output|check_call|getoutput))\s*\(/.test(
        l.text,
      )
    )
      continue;
    // The argument-list form (`subprocess.run(["npm", "publish"])`) is the same command, its words
    // joined.
    const argLists = [...l.text.matchAll(/\[\s*((?:(['"])(?:(?!\2)[^\\\n]|\\.)*\2\s*,?\s*){2,40})\]/g)].map(
      (m) =>
        [...m[1]!.matchAll(/(['"])((?:(?!\1)[^\\]|\\.)*)\1/g)]
          .map((w) => (/\s/.test(w[2]!) ? `'${w[2]}'` : w[2]))
          .join(' '),
    );
    const literals = [...l.text.matchAll(/(['"])((?:(?!\1)[^\\]|\\.){6,2000})\1/g)].map((m) => m[2]!);
    for (const cmd of [...literals, ...argLists]) {
      if (!/\s/.test(cmd) || hits.length > 50) continue;
      const found = analyzeScript(cmd, 'sh', installTime).filter(
        (h, i, all) => h.confidence >= 0.5 && all.findIndex((x) => x.rule === h.rule) === i,
      );
      for (const h of found.slice(0, 3))
        hits.push({ ...h, line: l.line, text: l.text, message: `runs a command that ${h.message}` });
    }
  }
  return hits;
}

/**
 * A Rust build script (`build.rs`) that cargo compiles and runs while npm installs the package (an
 * install step runs `cargo build` or `napi build`): the environment or secret variables read
 * (`env::vars()`, `env::var("NPM_TOKEN")`) or credential files opened, and a connection or a
 * program that carries data out (`TcpStream::connect`, `UdpSocket`, an HTTP client crate,
 * `Command::new("curl")`). Shell command lines it hands to `sh -c` are read by the shell rules.
 */
export function rustBuildHits(text: string, installTime: boolean): ScriptHit[] {
  const hits: ScriptHit[] = [];
  const src = text.slice(0, 1_000_000);
  const lines = src.split(/\r?\n/);
  const lineOf = (re: RegExp) => {
    const i = lines.findIndex((l) => re.test(l));
    return i < 0 ? undefined : { line: i + 1, text: lines[i]!.trim().slice(0, 200) };
  };
  const variant = installTime ? 'install' : undefined;
  const NET =
    /\b(?:TcpStream|UdpSocket)::(?:connect\w*|bind)\b|\b(?:reqwest|ureq|hyper|isahc|attohttpc|curl)::|\bCommand::new\(\s*"(?:curl|wget|nc|ncat|ping|nslookup|dig|scp|ssh)"/;
  const send = lineOf(NET);
  const wholeEnv = lineOf(/\benv::vars(?:_os)?\s*\(\s*\)/);
  const secretEnv = lineOf(
    /\benv::var(?:_os)?\s*\(\s*"[^"]*(?:TOKEN|SECRET|PASSW|API_?KEY|ACCESS_?KEY|PRIVATE_?KEY|AUTH|CREDENTIAL)[^"]*"\s*\)/i,
  );
  const fileOpen = /\b(?:fs::read(?:_to_string)?|File::open|read_to_string)\s*\(/.test(src);
  const secretFile = fileOpen ? lines.findIndex((l) => /"[^"]*"/.test(l) && SENSITIVE_PATH.test(l)) : -1;
  if (send && (wholeEnv || secretEnv))
    hits.push(
      scriptHit(
        'script.env-exfil',
        'data_exfiltration',
        wholeEnv
          ? 'sends the environment over the network'
          : 'sends variables named as secrets over the network',
        (wholeEnv ?? secretEnv)!.line,
        (wholeEnv ?? secretEnv)!.text,
        { variant },
      ),
    );
  if (send && secretFile >= 0)
    hits.push(
      scriptHit(
        'script.secret-file-exfil',
        'data_exfiltration',
        'reads credential or key files and sends them over the network',
        secretFile + 1,
        lines[secretFile]!.trim().slice(0, 200),
        { variant },
      ),
    );
  // Shell command lines given to a shell (`Command::new("sh").args(["-c", "curl … | sh"])`).
  if (/\bCommand::new\(\s*"(?:sh|bash|cmd|powershell)"/.test(src))
    for (const [i, l] of lines.entries()) {
      if (hits.length > 20) break;
      for (const m of l.matchAll(/"((?:[^"\\]|\\.){6,2000})"/g)) {
        if (!/\s/.test(m[1]!)) continue;
        for (const h of analyzeScript(m[1]!.replace(/\\"/g, '"'), 'sh', installTime)
          .filter((x) => x.confidence >= 0.5)
          .slice(0, 2))
          hits.push({
            ...h,
            line: i + 1,
            text: l.trim().slice(0, 200),
            message: `runs a command that ${h.message}`,
          });
      }
    }
  return hits;
}

/** `name() { … }` and `function name { … }` definitions: name → body lines. */
function shellFunctions(lines: { line: number; text: string }[]): {
  funcs: Map<string, string[]>;
  defLines: Set<string>;
} {
  const out = new Map<string, string[]>();
  const defLines = new Set<string>();
  const head = /^\s*(?:function\s+)?([A-Za-z_][\w-]*)\s*(?:\(\s*\))?\s*\{(.*)$/;
  for (let i = 0; i < lines.length && out.size < 100; i++) {
    const t = lines[i]!.text;
    if (!/\(\s*\)|^\s*function\s/.test(t)) continue;
    const m = head.exec(t);
    if (!m) continue;
    const body: string[] = [];
    defLines.add(t);
    const rest = m[2]!.trim();
    if (rest.endsWith('}')) {
      body.push(rest.replace(/\}\s*;?\s*$/, ''));
    } else {
      if (rest) body.push(rest);
      for (i++; i < lines.length && !/^\s*\}\s*;?\s*$/.test(lines[i]!.text); i++) {
        body.push(lines[i]!.text);
        defLines.add(lines[i]!.text);
      }
      if (i < lines.length) defLines.add(lines[i]!.text);
    }
    out.set(m[1]!, body);
  }
  return { funcs: out, defLines };
}

const HOME_TOKEN = /\$env:USERPROFILE|%USERPROFILE%|\$\{?HOME\b|(?:^|[\s"'=])~[\\/]/i;
const USER_FOLDER_WORD = /\b(?:Documents|Desktop|Downloads|Pictures|Music|Videos|OneDrive)\b/;
/**
 * A folder of home named by a variable (`"$HOME/$d"` in `for d in "$@"`, the folder names handed
 * over by the code that starts the script): every file under it listed and overwritten is the
 * user's, unless the listing picks some of them (by name, size or age: a log rotation; a negated
 * or match-all test picks nothing out).
 */
const VAR_UNDER_HOME = new RegExp(
  String.raw`^${HOME_RE}[\\/]+\$(?:[A-Za-z_]\w*|\{[A-Za-z_]\w*(?:[%#:/^,][^}]{0,20})?\}|[@*1-9])$`,
);
const NAME_FILTER =
  /\s-(?:i?name|i?regex|i?path|size|[acm](?:time|min)|newer\w*|user|group|perm|empty)\s|\*\.\w/;
/** Tests that pick nothing out: a negated one (`! -name '.*'`, `-not -name x`) or a match-all name. */
const NO_FILTER = /\s(?:!|-not)\s+-\w+\s+\S+|\s-i?name\s+["']?\*["']?(?=\s|$)/g;

/**
 * Each file listed under user data overwritten or truncated one by one: a loop over `find`/`ls`
 * or a glob of the home folder's data (or `$INIT_CWD`) whose body writes to the loop variable,
 * `find … -exec` or `| xargs` with a truncating command, `| while read f` writing `$f`, and
 * PowerShell's `Get-ChildItem -Recurse | ForEach-Object { Set-Content $_.FullName … }`.
 */
function eachListedOverwrite(
  lines: { line: number; text: string }[],
  vars: Map<string, string>,
  dialect: ScriptDialect,
): { line: number; text: string; path: string } | undefined {
  if (dialect === 'batch') return undefined;
  const userWord = (t: string, w: string) =>
    isUserDataPath(w) || (VAR_UNDER_HOME.test(w) && !NAME_FILTER.test(t.replace(NO_FILTER, ' ')));
  const userPath = (t: string) =>
    t
      .replace(/Join-Path\s+(\S+)\s+(\S+)/gi, '$1\\$2')
      .replace(/\$\(|[()"'`]/g, ' ')
      .split(/\s+/)
      .map((w) => w.replace(/(?:[\\/]\*(?:\.\w+)?|[\\/]+)$/, '').replace(/^-\w+:?/, ''))
      .find((w) => w && userWord(t, w)) ??
    // Folder names kept in a table and joined to the home folder at run time
    // (`Join-Path $env:USERPROFILE $targets[$k]` with `$targets = @{ a = "Documents" }`).
    (HOME_TOKEN.test(t) ? USER_FOLDER_WORD.exec(t)?.[0] : undefined);
  const WRITES_TO = (v: string) =>
    new RegExp(
      String.raw`(?:>>?|\bof=|\b(?:truncate|shred)\b[^\n;|]*|\bcp\s+/dev/(?:null|zero|urandom)\s+|\b(?:Set-Content|Out-File|Clear-Content|Add-Content)\b[^\n;|]*|\[(?:System\.)?IO\.File\]::Write\w*\(\s*)\s*["']?\$\{?${v}\b`,
      'i',
    );
  const text = lines.map((l) => l.text);
  // The folder a `cd` (`pushd`, `Set-Location`) went into, for a listing of `.` after it.
  let cwd: string | undefined;
  for (let i = 0; i < lines.length; i++) {
    const raw = text[i]!;
    const t = substitute(raw, vars, dialect);
    const cd = /(?:^|[;&|{(]|\bdo|\bthen)\s*(?:cd|pushd|Set-Location|sl)\s+["']?([^\s;&|"')]+)/i.exec(t);
    if (cd) cwd = userWord(t, cd[1]!.replace(/[\\/]+$/, '')) ? cd[1]!.replace(/[\\/]+$/, '') : undefined;
    const enumerates = /\b(?:find|ls|Get-ChildItem|gci|dir)\b/i.test(t) || /\*/.test(t);
    if (!enumerates) continue;
    const path =
      userPath(t) ??
      (cwd &&
      /\b(?:find\s+\.(?:[\\/]|\s|$)|(?:ls|Get-ChildItem|gci|dir)\b(?!\s+["']?[\w$~\\/.]))|\bin\s+\*/i.test(
        t,
      ) &&
      !NAME_FILTER.test(t.replace(NO_FILTER, ' '))
        ? cwd
        : undefined);
    if (!path) continue;
    // The loop variable, and the body: the rest of this line and the lines up to `done` / `}`.
    const loop =
      /\bfor\s+([A-Za-z_]\w*)\s+in\b/.exec(t) ??
      /\bforeach\s*\(\s*\$([A-Za-z_]\w*)\s+in\b/i.exec(t) ??
      /\|\s*while\s+read\s+(?:-r\s+)?([A-Za-z_]\w*)/.exec(t);
    const body = [t.slice((loop?.index ?? 0) + (loop?.[0].length ?? 0)), ...text.slice(i + 1, i + 30)];
    // A loop closed on its own line (`…; do …; done`, `{ … }`) has that line for its body.
    const first = body[0]!;
    const closed =
      /\bdone\b/.test(first) || (first.includes('{') && first.split('{').length === first.split('}').length);
    const end = closed ? 1 : body.findIndex((b, k) => k > 0 && /^\s*(?:done|\})\s*;?\s*$/.test(b));
    const block = (end > 0 ? body.slice(0, end) : body.slice(0, 10)).join('\n');
    const piped = /\|\s*(?:ForEach-Object|%)\s*\{/i.test(t) ? block : '';
    if (
      (loop && WRITES_TO(loop[1]!).test(block)) ||
      (piped && WRITES_TO('_').test(piped)) ||
      /\bfind\b[^\n]*-exec\s+(?:truncate|shred|dd|cp\s+\/dev\/|sh\s+-c\s+['"][^'"]*>\s*["']?(?:\$1|\{\}))/.test(
        t,
      ) ||
      /\|\s*xargs\b[^\n|]*\b(?:truncate|shred|dd\s+if=\/dev\/)/.test(t)
    )
      return { line: lines[i]!.line, text: raw.trim().slice(0, 200), path };
  }
  return undefined;
}

/** Findings for one script file (or an inline `sh -c` string when `dialect` is 'sh'). */
/** What one package's scripts did so far: a file downloaded by one script and run by another. */
export interface ScriptState {
  downloads: Map<string, Download>;
  executable: Set<string>;
  /** When set, what the scripts' commands can do is recorded here (programs, requests, hosts). */
  caps?: CapabilityCollector;
  /** Nesting of `sh -c` strings being read (bounded). */
  depth?: number;
  /** Variables known to hold secrets whatever their names (a CI step's `env:` fed from secrets). */
  secretVars?: ReadonlySet<string>;
  /** Files the scripts wrote the environment or secrets into: file name → what they hold. */
  secretFiles?: Map<string, string>;
  /** Folders an archive the scripts downloaded was unpacked into ('' for the working folder). */
  unpacked?: { dir: string; src: Download }[];
  /** Encoded scripts decoded and read so far (each once), and their bytes (bounded: see below). */
  decoded?: { seen: Set<string>; bytes: number };
}

const depthOf = (s: ScriptState) => s.depth ?? 0;

export function newScriptState(): ScriptState {
  return { downloads: new Map(), executable: new Set() };
}

/** A Chromium-family browser named as a program or shortcut target. */
const BROWSER_TARGET =
  /\b(?:chrome|msedge|brave|chromium|vivaldi|opera)(?:\.exe|\.lnk|\.desktop)?\b|Google Chrome|Microsoft Edge/i;

export function analyzeScript(
  text: string,
  dialect: ScriptDialect,
  installTime: boolean,
  state: ScriptState = newScriptState(),
): ScriptHit[] {
  let lines = logicalLines(text, dialect).filter((l) => l.text.trim() && !isComment(l.text, dialect));
  if (dialect === 'python') return pyHits(lines, installTime);
  // PowerShell statements separated by `;` on one line (`$p = "…"; iwr … -OutFile $p; saps $p`)
  // are read one by one, so an assignment does not swallow the commands after it.
  if (dialect === 'powershell')
    lines = lines.flatMap((l) =>
      l.text.includes(';') && !/[{}]/.test(l.text)
        ? l.text
            .split(SEMICOLON)
            .filter((t) => t.trim())
            .map((t) => ({ line: l.line, text: t.trim() }))
        : [l],
    );
  // cmd.exe: `^` escapes the next character, so `^c^u^r^l` is curl; commands joined with `&`
  // on one line (`set "u=…" & curl … "!u!" & start …`) are read one by one.
  if (dialect === 'batch')
    lines = lines.flatMap((l) =>
      l.text
        .replace(/\^(?=[\w.:\\/-])/g, '')
        .split(AMPERSAND)
        .filter((t) => t.trim())
        // `if [not] exist "x" cmd`, `if errorlevel 1 cmd`, `if "%a%"=="b" cmd`: the command runs
        // when the condition holds (read like the command itself).
        .map((t) => ({
          line: l.line,
          text: t
            .trim()
            .replace(
              /^if\s+(?:\/i\s+)?(?:not\s+)?(?:exist\s+(?:"[^"]*"|\S+)|errorlevel\s+\d+|defined\s+\S+|(?:"[^"]*"|\S+)\s*==\s*(?:"[^"]*"|\S+))\s+(?!\()/i,
              '',
            ),
        })),
    );
  const hits: ScriptHit[] = [];
  const vars = new Map<string, string>();
  const cmds: Command[] = [];
  // Shell functions (`get() { curl -o "$2" "$1"; }`): their bodies are expanded where they are
  // called, with the call's arguments as $1…$9 and $@.
  const { funcs, defLines } =
    dialect === 'sh'
      ? shellFunctions(lines)
      : { funcs: new Map<string, string[]>(), defLines: new Set<string>() };
  // One line's assignments bound (leading `A=1 && cmd` ones, a whole-line one, a loop's variable)
  // and its commands' text with the variables known so far substituted.
  const bind = (text: string): { resolved: string; assigned: boolean } => {
    let lineText = text;
    // `U=https://…; curl "$U"` / `A=1 && cmd`: leading assignments on the same line as commands.
    if (dialect === 'sh') {
      for (let m; (m = LEADING_ASSIGN.exec(lineText)) && vars.size < MAX_VARS;) {
        vars.set(m[1]!, unquote(substitute(m[2]!, vars, dialect)));
        lineText = m[3]!;
      }
    }
    // `if …; then get="curl -fsSL"; else get="wget -qO-"; fi`: an assignment in a branch written on
    // one line (the first branch's value kept).
    if (dialect === 'sh' && /(?:then|else|do)\s+(?:export\s+)?[A-Za-z_]\w*=/.test(lineText)) {
      const seen = new Set<string>();
      for (const seg of lineText.split(/;|&&|\|\|/).slice(0, 50)) {
        const b =
          /^\s*(?:then|else|do|\{)\s+(?:export\s+)?([A-Za-z_]\w*)=("[^"]*"|'[^']*'|[^\s;&|'"`]*)\s*$/.exec(
            seg,
          );
        if (!b || vars.size >= MAX_VARS) continue;
        // (A later branch's value wins only when it names a downloader or an interpreter: a
        // decoy `echo` in the first branch does not hide the `curl` of the second.)
        const value = unquote(substitute(b[2]!, vars, dialect));
        if (seen.has(b[1]!) && !/\b(?:curl|wget|aria2c|fetch|iwr|python3?|node|bash|sh)\b/.test(value))
          continue;
        seen.add(b[1]!);
        vars.set(b[1]!, value);
      }
    }
    let resolved = substitute(lineText, vars, dialect);
    const a = assignment(resolved, dialect);
    if (a && vars.size < MAX_VARS) vars.set(a[0], a[1]);
    // `for d in A B C; do …` / `foreach ($d in $list)`: the loop variable holds the whole list.
    const loop =
      dialect === 'sh'
        ? /^\s*for\s+([A-Za-z_]\w*)\s+in\s+(.+?)\s*(?:;\s*do\b|$)/.exec(resolved)
        : dialect === 'powershell'
          ? /^\s*foreach\s*\(\s*\$([A-Za-z_]\w*)\s+in\s+(.+?)\)/i.exec(resolved)
          : /^\s*for\s+%%?([A-Za-z])\s+in\s+\((.+?)\)\s+do\b/i.exec(resolved);
    if (loop && vars.size < MAX_VARS)
      vars.set(
        loop[1]!,
        loop[2]!
          .replace(/^@\(|\)$/g, '')
          .replace(/[,'"]/g, ' ')
          .trim(),
      );
    // The loop body on the same line (`…; do rm -rf "$d"; done`, `… do del %%p`) sees the list.
    if (loop) {
      const body = /\bdo\b\s*(.*)$/i.exec(text)?.[1] ?? '';
      resolved = substitute(body.replace(/;?\s*done\s*;?\s*$/, ''), vars, dialect);
    }
    return { resolved, assigned: !!a };
  };
  const expand = (c: Command, depth: number): Command[] => {
    const { prog, args } = programOf(c);
    const body = funcs.get(prog);
    if (!body || depth > 2) return [c];
    const out: Command[] = [];
    for (const line of body) {
      const text = line
        .replace(/\$\{?([1-9])\}?/g, (_w, n: string) => args[Number(n) - 1] ?? '')
        .replace(/"?\$@"?/g, args.join(' '));
      // (Assignments and loops in the body bind as they do at the top level.)
      const { resolved, assigned } = bind(text);
      if (assigned) continue;
      for (const inner of commands(c.line, resolved)) {
        if (c.background) inner.background = true;
        out.push(...expand(inner, depth + 1));
      }
    }
    return out;
  };
  for (const l of lines) {
    if (defLines.has(l.text)) {
      // A function's commands are followed where it is called; the one-line shapes (a socket
      // opened on /dev/tcp, a download piped to a shell) are read where they are written too, for
      // a library of functions another script reads in and calls.
      const text = substitute(l.text, vars, dialect);
      for (const h of analyzeShell(text, installTime)) hits.push({ ...h, line: l.line, text });
      continue;
    }
    const { resolved, assigned } = bind(l.text);
    for (const h of analyzeShell(resolved, installTime)) hits.push({ ...h, line: l.line, text: resolved });
    if (!assigned) for (const c of commands(l.line, resolved)) cmds.push(...expand(c, 0));
  }
  // A PowerShell reverse shell spread over lines: a TCPClient's stream read and fed to iex.
  if (dialect === 'powershell' && !hits.some((h) => h.rule === 'shell.reverse-shell')) {
    const all = lines.map((l) => l.text).join('\n');
    const client = lines.find((l) => /Net\.Sockets\.TCPClient\s*\(/i.test(l.text));
    if (client && /GetStream\s*\(\)/i.test(all) && /\biex\b|Invoke-Expression/i.test(all))
      hits.push(
        scriptHit(
          'shell.reverse-shell',
          'malicious_code',
          'runs what a TCP connection sends through Invoke-Expression (reverse shell)',
          client.line,
          client.text,
          { variant: installTime ? 'install' : undefined },
        ),
      );
  }
  // Shell functions are read where they are called, with the call's arguments as $1…$9
  // (`clear_dir() { find "$1" … }` called as `clear_dir "$HOME/$d"`).
  const called = lines.flatMap((l) => {
    if (defLines.has(l.text)) return [];
    // A call may sit in a loop body on the same line (`for d in A B; do f "$d"; done`).
    return substitute(l.text, vars, dialect)
      .split(/;|&&|\|\||\bdo\b/)
      .flatMap((segment) => {
        const words = segment.trim().split(/\s+/);
        const body = funcs.get(words[0] ?? '');
        if (!body) return [];
        const args = words.slice(1).map(unquote);
        return body.map((b) => ({
          line: l.line,
          text: b.replace(/\$\{?([1-9])\}?/g, (_w, n: string) => args[Number(n) - 1] ?? ''),
        }));
      });
  });
  const overwrite = eachListedOverwrite([...lines, ...called], vars, dialect);
  if (overwrite)
    hits.push(
      scriptHit(
        'script.destructive',
        'malicious_code',
        `overwrites each file it lists under ${overwrite.path.slice(0, 60)} (the user's files, not the package's own)`,
        overwrite.line,
        overwrite.text,
        { variant: installTime ? 'install' : undefined },
      ),
    );
  // `echo <base64> | base64 -d | python3` (or sh, bash, node via -e is elsewhere): the decoded
  // script is read with its own dialect's rules.
  if (dialect === 'sh' && depthOf(state) < 2)
    for (const l of lines) {
      for (const { script, dialect: inner } of decodedScripts(substitute(l.text, vars, dialect))) {
        // (Each payload once, and 256 KB of decoded text in all: a few lines of gzip expand a lot.)
        const budget = (state.decoded ??= { seen: new Set(), bytes: 0 });
        if (budget.seen.has(script) || budget.bytes + script.length > 256 * 1024) continue;
        budget.seen.add(script);
        budget.bytes += script.length;
        state.depth = depthOf(state) + 1;
        try {
          for (const h of analyzeScript(script, inner, installTime, state))
            hits.push({
              ...h,
              line: l.line,
              message: `runs an encoded ${inner === 'python' ? 'Python' : 'shell'} script that ${h.message}`,
            });
        } finally {
          state.depth = depthOf(state) - 1;
        }
      }
    }
  // A script given to a shell on its command line (`sh -c`, `cmd /c`, `powershell -Command`), read
  // in that shell's dialect with this script's state, one level deeper (bounded).
  const readInner = (c: Command, inner: string, dialect: ScriptDialect) => {
    state.depth = depthOf(state) + 1;
    try {
      for (const h of analyzeScript(inner.slice(0, 200_000), dialect, installTime, state))
        hits.push({ ...h, line: c.line, text: h.text || c.text });
    } finally {
      state.depth = depthOf(state) - 1;
    }
  };
  // `python -c "…"` one-liners are read as Python; `sh -c "…"` strings as shell scripts.
  for (const c of cmds) {
    const { prog, args } = programOf(c);
    const ci = args.indexOf('-c');
    if (
      dialect === 'sh' &&
      depthOf(state) < 2 &&
      /^(?:sh|bash|zsh|dash)$/.test(base(prog)) &&
      ci >= 0 &&
      args[ci + 1]
    ) {
      readInner(c, args[ci + 1]!, 'sh');
    }
    // `cmd /c "…"` (also `cmd.exe /v:on /d /s /c …`, `/k`): the rest of the line is a batch line.
    const cmdAt = /^(?:[\w.:\\/-]*[\\/])?cmd(?:\.exe)?\s+(?:\/[a-z](?::\w+)?\s+)*?\/[ck]\s+/i.exec(
      c.text.trim(),
    );
    if (cmdAt && depthOf(state) < 2) {
      const inner = c.text
        .trim()
        .slice(cmdAt[0].length)
        .replace(/^(["'])([\s\S]*)\1$/, '$2');
      readInner(c, inner, 'batch');
    }
    // `powershell -c "…"` / `-Command` / `-EncodedCommand <base64 UTF-16LE>`: read as PowerShell.
    if (/^(?:powershell|pwsh)(?:\.exe)?$/i.test(base(prog)) && depthOf(state) < 2) {
      const ci = args.findIndex((a) => /^[-/](?:c|command|ec|e|enc|encodedcommand)$/i.test(a));
      const encoded = ci >= 0 && /^[-/](?:ec|e|enc|encodedcommand)$/i.test(args[ci]!);
      // `-Command` takes the rest of the line as the script (`powershell -c iwr $u -OutFile $f`).
      const value = ci < 0 ? undefined : encoded ? args[ci + 1] : args.slice(ci + 1).join(' ') || undefined;
      let inner = value;
      if (inner && encoded) {
        inner = /^[A-Za-z0-9+/=]{8,}$/.test(inner)
          ? Buffer.from(inner, 'base64').toString('utf16le')
          : undefined;
      }
      if (inner) readInner(c, inner, 'powershell');
    }
    const i = args.indexOf('-c');
    if (/^python(?:3(?:\.\d+)?)?$/.test(base(prog)) && i >= 0 && args[i + 1]) {
      const code = args[i + 1]!.split(/;|\n/).map((text) => ({ line: c.line, text }));
      for (const h of pyHits(code, installTime)) hits.push({ ...h, line: c.line, text: c.text });
    }
  }

  if (state.caps) recordCapabilities(cmds, state.caps);

  const { downloads, executable } = state;
  const secretReads: { c: Command; sends: boolean }[] = [];
  const uploads: Command[] = [];
  /** Files the script wrote the environment or secrets into: file name → what they hold. */
  const secretFiles = (state.secretFiles ??= new Map<string, string>());
  let reverseShellSeen = false;
  const install = installTime ? 'install' : undefined;
  const add = (
    c: Command,
    rule: RuleId,
    type: ThreatType,
    message: string,
    level: ConfidenceQuery = { variant: install },
  ) => hits.push(scriptHit(rule, type, message, c.line, c.text, level));

  // The folder a `cd` moved to when it is not the package's own (see below).
  let cwd: string | undefined;
  for (const c of cmds) {
    // `python3 -c "…"`: the inline program is read by the Python rules (statements split at `;`).
    const py = programOf(c);
    if (/^python[\d.]*$/i.test(base(py.prog)) && py.args[0] === '-c' && py.args[1] && depthOf(state) < 2) {
      const stmts = py.args[1]
        .split(/;(?=(?:[^"']|"[^"]*"|'[^']*')*$)|\n/)
        .map((t) => ({ line: c.line, text: t.trim() }))
        .filter((l) => l.text);
      for (const h of pyHits(stmts, installTime)) hits.push({ ...h, line: c.line, text: c.text });
    }
    const d = download(c);
    if (d) {
      if (d.out) downloads.set(base(d.out), d);
      // Downloaded straight into an interpreter is shell.download-pipe-shell (line rule).
    }
    // A downloaded file decoded into another (`certutil -decode in.txt out.exe`, `-decodehex`,
    // `base64 -d in > out`): the output is the download, in its runnable form.
    const decoded = decodedCopy(c);
    const decodedFrom = decoded ? downloads.get(base(decoded.from)) : undefined;
    if (decoded && decodedFrom) downloads.set(base(decoded.to), decodedFrom);
    // An archive it downloaded, unpacked: what the folder holds was downloaded too.
    const unpacked = extraction(c);
    const fromArchive = !unpacked
      ? undefined
      : unpacked.archive === '-'
        ? streamedDownload(c, cmds)
        : downloads.get(base(unpacked.archive));
    if (unpacked && fromArchive && (state.unpacked ??= []).length < 20)
      state.unpacked.push({ dir: relKey(unpacked.dir), src: fromArchive });
    const { prog, args } = programOf(c);
    const p = base(prog).replace(/\.exe$/, '');
    // `cd "$INIT_CWD"`, `cd ~`, `pushd ../..`: relative paths after it name files there.
    if (/^(?:cd|pushd|chdir|set-location|sl)$/i.test(p)) {
      const dir = args.filter((a) => !/^-/.test(a))[0]?.replace(/^["']|["']$/g, '');
      cwd = dir !== undefined && isForeignPath(dir) ? dir : undefined;
    }
    // Whatever it is for, an install step that changes files it does not own (see tamper.ts).
    if (installTime) {
      const changes = changedPaths(c).map((x) => {
        const bare = x.path.replace(/^["']|["']$/g, '');
        return cwd !== undefined && bare && !/^(?:[\\/~$%]|[A-Za-z]:)/.test(bare)
          ? { ...x, path: `${cwd.replace(/[\\/]+$/, '')}/${bare}` }
          : x;
      });
      const changed = changes.find(
        (x) => isForeignPath(x.path) && !/(?:^|[\\/])(?:\.git[\\/]hooks|\.husky)[\\/]/.test(x.path),
      );
      if (changed)
        add(
          c,
          'script.foreign-file-change',
          'install_script_injection',
          `${changed.removes ? 'deletes or moves' : 'writes'} ${shownPath(changed.path)}, which the package does not own, while it installs`,
        );
      // A git hook planted in repositories found under home (not the project's own hooks, which
      // hook managers write): every commit or push there runs it.
      const hook = changes.find(
        (x) =>
          !x.removes &&
          /(?:^|[\\/])hooks[\\/](?:pre|post)-[\w-]+["']?$/.test(x.path) &&
          (isForeignPath(x.path) || /\$\(\s*find\b|`\s*find\b/.test(x.path)),
      );
      if (hook)
        add(
          c,
          'script.persistence',
          'install_script_injection',
          'plants a git hook in repositories it finds',
        );
    }
    if (p === 'chmod' && args.some((a) => /^\+?[ugoa]*\+x$|^[0-7]*[157][0-7]*$/.test(a))) {
      for (const a of args) if (downloads.has(base(a))) executable.add(base(a));
    }
    let runs = executed(c).find((f) => downloads.has(f) && f !== 'curl' && f !== 'wget');
    let src = runs ? downloads.get(runs) : undefined;
    if (!runs && state.unpacked?.length && !unpacked)
      for (const raw of executedPaths(c)) {
        const key = pathKey(raw);
        // A file, not a program found on PATH (`tar`, `node`): a folder in it, or an extension.
        if (!/\/|\.(?:exe|com|bat|cmd|ps1|vbs|js|sh|py|bin|app|dll)$/.test(key)) continue;
        // Under the folder it was unpacked into (or, unpacked here, a relative path).
        const from = state.unpacked.find((u) =>
          u.dir ? relKey(raw).startsWith(`${u.dir}/`) : key && !/^(?:[/~$%]|[a-z]:)/.test(key),
        );
        if (from) {
          runs = base(raw);
          src = from.src;
          break;
        }
      }
    if (runs && src) {
      const r = urlRisk(src.url);
      // Each of plain HTTP, a bare IP address and a background run raises the confidence a step.
      const steps = [r.plain, r.bareIp, c.background].filter(Boolean).length;
      add(
        c,
        'script.download-execute',
        'install_script_injection',
        `downloads ${runs}${src.url ? ` from ${src.url.slice(0, 80)}` : ''} (line ${src.line}) and runs it${c.background ? ' in the background' : ''}`,
        { variant: install, steps },
      );
    }
    // Windows programs that fetch and run what a URL points at in one command: an HTML
    // application (mshta), a scriptlet (regsvr32 /i:URL scrobj.dll), an installer (msiexec /i URL),
    // script: or javascript: monikers through rundll32.
    // A CLI command that runs a migration tool by its address (`npx -y https://…tgz`) is what its
    // user asked for; while the package installs nobody asked.
    const runner = /^(?:deno|bun|npx|pnpm|yarn|npm|bunx)$/i.test(p);
    const remote = !runner || installTime ? remoteRun(p, c.text) : undefined;
    if (remote) {
      const r = urlRisk(remote);
      add(
        c,
        'script.download-execute',
        'install_script_injection',
        `runs ${p} on ${remote.slice(0, 80)}: fetches that code and runs it`,
        { variant: install, steps: [r.plain, r.bareIp].filter(Boolean).length },
      );
    }
    // Cloud, cluster and database resources deleted while the package installs: the same harm
    // as a wiper, done with the credentials the developer's machine holds.
    const service = installTime ? destroyedService(c) : undefined;
    if (service)
      add(c, 'script.destructive', 'malicious_code', `deletes ${service} while the package installs`);
    const device = wipedDevice(c);
    if (device)
      add(
        c,
        'script.destructive',
        'malicious_code',
        `overwrites or formats the disk ${device.slice(0, 40)} (every file on it, not the package's own)`,
      );
    const destroyed = destroyedPaths(c, dialect)?.filter(isUserDataPath);
    if (destroyed?.length) {
      add(
        c,
        'script.destructive',
        'malicious_code',
        `deletes or wipes ${destroyed[0]!.replace(/\s+/g, ' ').slice(0, 60)} (the user's files, not the package's own)`,
      );
    }
    // An interactive shell in one pipeline with a network tool (`cat f | sh -i 2>&1 | nc h 9001 >
    // f`, `socat … | bash -i`): a reverse shell, however its pieces are spread over lines.
    if (!reverseShellSeen && INTERACTIVE_SHELL.test(p) && (args.includes('-i') || args.length === 0)) {
      const pipeline: Command[] = [c];
      for (let n = c.pipedTo; n && pipeline.length < 8; n = n.pipedTo) pipeline.push(n);
      for (const other of cmds) if (other.pipedTo === c) pipeline.push(other);
      if (pipeline.some((x) => x !== c && PIPE_NET.test(base(programOf(x).prog)))) {
        reverseShellSeen = true;
        add(
          c,
          'shell.reverse-shell',
          'malicious_code',
          'pipes an interactive shell to a network connection (reverse shell)',
        );
      }
    }
    if (
      NET_SEND.test(p) &&
      /(?:^|\s)(?:(?:-[Ii][Nn][Ff][Ii][Ll][Ee]|-[a-zA-Z]*T|--upload-file)\s+\S|(?:-F|--form)\s+["']?[\w-]+=@|(?:--data-binary|-d|--data)\s+["']?@)/.test(
        c.text,
      )
    )
      uploads.push(c);
    // The environment dumped into a network command, directly or through base64/gzip.
    const dumps = dumpsEnvironment(c);
    if (dumps) {
      let next = c.pipedTo;
      for (let hops = 0; next && hops < 4; hops++) {
        if (NET_SEND.test(base(programOf(next).prog))) {
          add(
            c,
            'script.env-exfil',
            'data_exfiltration',
            'dumps the environment and sends it over the network',
          );
          break;
        }
        next = next.pipedTo;
      }
    }
    // The environment or secret variables written to a file (`env > e.txt`, `echo "$TOKEN" >> f`,
    // `… | tee f`): remembered, so that a later upload of that file is the same theft.
    // PowerShell writes with cmdlets: `… | Out-File f`, `Set-Content -Path f`, `Add-Content f`.
    const psWrite = /^(?:out-file|set-content|add-content|sc|ac)$/i.test(p);
    const psPath = (() => {
      if (!psWrite) return undefined;
      const i = args.findIndex((a) => /^-(?:filepath|path|literalpath)$/i.test(a));
      return (i >= 0 ? args[i + 1] : args.find((a) => !a.startsWith('-')))?.replace(/^["']|["']$/g, '');
    })();
    const into =
      p === 'tee'
        ? unredirected(args).find((a) => !a.startsWith('-'))
        : (psPath ?? /(?:^|[^>&\d])>>?\s*["']?([^\s"';|&<>]+)/.exec(c.text)?.[1]);
    if (into && !/^\/dev\//.test(into)) {
      // `tee` writes what is piped into it: the command before it decides what the file holds.
      // What the file holds comes from the command and everything piped into it (`printf "$T" |
      // base64 > f`); `tee` writes only what it is given.
      const feeds: Command[] = p === 'tee' || /^out-file$/i.test(p) ? [] : [c];
      for (let i = 0, at = [c]; i < 8 && at.length; i++) {
        at = cmds.filter((o) => at.includes(o.pipedTo!));
        feeds.push(...at);
      }
      const secrets = feeds.flatMap((f) =>
        // A PowerShell pipeline may start with the string itself (`"$env:TOKEN" | Out-File f`).
        /^(?:echo|printf|cat|write-output|set-content|add-content|out-file|tee)$/i.test(
          base(programOf(f).prog),
        ) || /^["']/.test(f.text.trim())
          ? sentSecrets(f, state.secretVars, false)
          : [],
      );
      if (feeds.some(dumpsEnvironment)) secretFiles.set(base(into), 'the environment');
      else if (secrets.length) secretFiles.set(base(into), secrets.slice(0, 4).join(', '));
    }
    if (NET_SEND.test(p) && secretFiles.size) {
      const sentFile = [
        ...c.text.matchAll(
          /(?:@|(?:--upload-file|(?<=\s)-[a-zA-Z]*T|--post-file=?|-InFile|--body-file=?)\s*)["']?([^\s"';|&<>]+)/gi,
        ),
      ]
        .map((m) => base(m[1]!))
        .find((f) => secretFiles.has(f));
      if (sentFile)
        add(
          c,
          'script.env-exfil',
          'data_exfiltration',
          `writes ${secretFiles.get(sentFile) === 'the environment' ? 'the environment' : `secrets (${secretFiles.get(sentFile)})`} to ${sentFile} and sends the file over the network`,
        );
    }
    // Credential and key files read by a command (cat ~/.ssh/id_rsa, find ~/.ssh | xargs cat,
    // curl -d @~/.npmrc, Get-Content $env:USERPROFILE\.aws\credentials).
    const readsSecret =
      /^(?:cat|type|get-content|gc|base64|xxd|od|head|tail|tar|zip|gzip|cp|scp|rsync|find|more|less|strings|copy|xcopy|robocopy|copy-item|cpi)$/i.test(
        p,
      ) ||
      (NET_SEND.test(p) && /(?:@|<\s*)["']?[~$%]/.test(c.text)) ||
      // A variable holding a file read earlier (`$creds = Get-Content …`) substituted into the send.
      (NET_SEND.test(p) &&
        /\b(?:get-content|gc|cat|type)\b/i.test(c.text) &&
        !/(?:\s-o|--output|-outfile|>)\s*["']?[^\s"']*(?:\.ssh|\.npmrc|\.aws)/i.test(c.text)) ||
      /\$\(\s*(?:cat|base64|xxd|head|tail)\s/.test(c.text);
    if (
      readsSecret &&
      SENSITIVE_PATH.test(c.text.replace(/\$\{?HOME\}?|%USERPROFILE%|\$env:USERPROFILE/gi, '~'))
    ) {
      const sends =
        NET_SEND.test(p) ||
        rsyncRemote(c) ||
        uncCopy(c) ||
        [c.pipedTo, c.pipedTo?.pipedTo].some((n) => n && NET_SEND.test(base(programOf(n).prog)));
      secretReads.push({ c, sends });
    }
    // `git push` from an install or run hook: code that spreads itself through repositories.
    // During an install, git throwing away the project's work: untracked files removed
    // (`git clean -fdx`), commits dropped (`git reset --hard HEAD~20`), history forced over.
    if (p === 'git' && installTime) {
      const sub = gitSubcommand(args);
      const flags = args.filter((a) => a.startsWith('-')).join(' ');
      if (
        (sub === 'clean' && /-\w*f/.test(flags) && /-\w*[dx]/.test(flags)) ||
        (sub === 'reset' &&
          /--hard/.test(flags) &&
          args.some((a) => /^HEAD[~^]\d*$|^[0-9a-f]{7,40}$/.test(a))) ||
        // (Forced onto the project's own remote: a push to an address written out is not its history.)
        (sub === 'push' &&
          /(?:^|\s)(?:-f|--force)\b/.test(flags) &&
          !args.some((a) => /^["']?(?:(?:https?|ssh|git):\/\/|[\w.-]+@[\w.-]+:)/.test(a)))
      )
        add(
          c,
          'script.destructive',
          'malicious_code',
          `discards the project's work or history while installing (git ${sub} ${flags})`.trim(),
        );
    }
    if (p === 'git' && gitSubcommand(args) === 'push') {
      add(c, 'script.git-push', 'install_script_injection', 'pushes to a git remote (self-propagation)');
    }
    // A request-capture or tunnelling service called from a script: a beacon.
    const sendUrl = NET_SEND.test(p) ? URL_RE.exec(c.text)?.[0] : undefined;
    const sendHost = sendUrl ? /^[a-z]+:\/\/([^/:?#]+)/i.exec(sendUrl)?.[1] : undefined;
    if (sendHost && EXFIL_HOST.test(sendHost)) {
      add(
        c,
        'script.exfil-host',
        'data_exfiltration',
        `calls ${sendHost.slice(0, 80)}, a request-capture/tunnelling service (install beacon)`,
      );
    }
    // Who and where the install runs (host name, user, folder, addresses), sent to a host: the
    // dependency-confusion beacon written as one curl/nslookup line.
    if (NET_SEND.test(p)) {
      const probes = [
        ...c.text.matchAll(
          /\$\(\s*(hostname|whoami|id|pwd|ifconfig|ip\s+a|ls\s+[^)]*(?:\/home|\/Users|\/)\b|cat\s+\/etc\/(?:passwd|hostname)|git\s+config\s+(?:--global\s+)?user\.(?:email|name))|`\s*(hostname|whoami|id|pwd)\b|%(USERNAME|COMPUTERNAME|USERDOMAIN|USERPROFILE|CD)%|\$env:(USERNAME|COMPUTERNAME|USERDOMAIN)|\$\{?(HOSTNAME|USER|LOGNAME)\}?\b/gi,
        ),
      ].map((m) =>
        /^git\s/.test(m[1] ?? '')
          ? 'git user'
          : (m[1] ?? m[2] ?? m[3] ?? m[4] ?? m[5] ?? '').split(/\s/)[0]!.toLowerCase(),
      );
      const distinct = new Set(probes.filter(Boolean));
      // The folder alone (`$(pwd)`) is not an identity; with a user or host name it is.
      const identity = [...distinct].filter((x) => x !== 'pwd' && x !== 'cd');
      if (
        identity.length &&
        (installTime ||
          distinct.size >= 2 ||
          identity.some((x) => /^(?:whoami|hostname|username|computername|git user)$/.test(x)))
      ) {
        add(
          c,
          'script.fingerprint-exfil',
          'data_exfiltration',
          `sends who and where it runs (${[...distinct].slice(0, 4).join(', ')}) with ${base(p)}`,
        );
      }
    }
    if (
      NET_SEND.test(p) &&
      // (Also inside a group: `"$( (env; echo …) | gzip | base64)"`.)
      /\$\(\s*(?:[({]\s*)?(?:env|printenv|set)\b(?!\s*=)|`(?:env|printenv)`|\$env:\*|\[Environment\]::GetEnvironmentVariables/i.test(
        c.text,
      )
    ) {
      add(c, 'script.env-exfil', 'data_exfiltration', 'sends the environment over the network');
    } else if (NET_SEND.test(p)) {
      // Secrets from the environment put in a request's body, URL or query (`curl -d "t=$NPM_TOKEN"`,
      // `nslookup $TOKEN.host`): the same theft as sending the whole environment, one value at a time.
      const secrets = sentSecrets(c, state.secretVars);
      // A sender that reads its body from standard input (`curl -d @-`, `-T -`, `nc host port`):
      // what the commands piped into it print is sent (`echo "$NPM_TOKEN" | base64 | curl -d @- …`).
      if (
        /@-(?:\s|$)|(?:^|\s)(?:-T|--upload-file)\s+-(?:\s|$)|\/dev\/stdin/.test(c.text) ||
        PIPE_NET.test(p)
      ) {
        for (
          let up = cmds.find((o) => o.pipedTo === c), n = 0;
          up && n < 8;
          up = cmds.find((o) => o.pipedTo === up), n++
        ) {
          for (const name of sentSecrets(up, state.secretVars, false))
            if (!secrets.includes(name)) secrets.push(name);
          const printed = PRINTS_CREDENTIAL.exec(up.text)?.[0];
          if (printed && !secrets.includes(printed)) secrets.push(printed);
        }
      }
      // A command that prints a credential, substituted into the request (`-d "$(gh auth token)"`,
      // also deep inside substitutions variables brought in), not as the request's own credential
      // header.
      const printed = substitutedCredential(c.text.replace(CREDENTIAL_ARG, ' '));
      if (printed && !secrets.includes(printed)) secrets.push(printed);
      if (secrets.length)
        add(
          c,
          'script.env-exfil',
          'data_exfiltration',
          `sends secrets from the environment (${secrets.slice(0, 4).join(', ')}) over the network`,
        );
    }
    if (
      /\bxmrig\b|\bstratum\+(?:tcp|ssl):\/\/|--donate-level\b|\bcpuminer\b|\bminerd\b|\bnbminer\b|\bt-rex\b/i.test(
        c.text,
      ) ||
      minerCommand(c.text)
    ) {
      add(c, 'script.crypto-miner', 'malicious_code', 'starts a cryptocurrency miner');
    }
    if (
      /^crontab$/i.test(p) ||
      /\bschtasks\b.*\/create\b/i.test(c.text) ||
      /\bRegister-ScheduledTask\b/i.test(c.text) ||
      // macOS login items added through AppleScript.
      /\bosascript\b.*\blogin\s+item\b/i.test(c.text) ||
      // An editor extension installed while the package installs: code that runs in every editor session.
      (installTime &&
        /\b(?:code|code-insiders|cursor|windsurf|codium)\s+[^|;&]*--install-extension\b/i.test(c.text)) ||
      /\breg(?:\.exe)?\s+add\b.*\\(?:Run|RunOnce)\b/i.test(c.text) ||
      /\b(?:New-ItemProperty|Set-ItemProperty)\b.*\\(?:Run|RunOnce)\b/i.test(c.text) ||
      /\blaunchctl\s+(?:load|bootstrap)\b/i.test(c.text) ||
      /\bsystemctl\s+--user\s+(?:enable|start)\b/i.test(c.text) ||
      // Hooks for every repository of the user (husky and friends set a repository's own path).
      /\bgit\s+config\s+(?:--global|--system)\s+(?:core\.hooksPath|init\.templateDir)\b/i.test(c.text) ||
      // Settings that make every later git or npm run start a command or load a module.
      /\bgit\s+config\s+(?:--global|--system)\s+core\.(?:fsmonitor|sshCommand)\s+\S/i.test(c.text) ||
      /\bnpm\s+config\s+set\s+(?:node-options\s+\S*(?:--require|-r|--import|--loader)\b|script-shell\s+\S)/i.test(
        c.text,
      ) ||
      /Library\/LaunchAgents\/|\.config\/(?:systemd\/user|autostart)\/|\\Start Menu\\Programs\\Startup\\|>>?\s*["']?[^\s>]*\.ssh\/authorized_keys2?\b/i.test(
        c.text,
      )
    ) {
      add(
        c,
        'script.persistence',
        'install_script_injection',
        'installs itself to run later (cron, Run key, launch agent, systemd unit, scheduled task)',
      );
    }
    // A Chromium browser made to load an unpacked extension on every start: its shortcuts or its
    // command line given `--load-extension` (the ChromeLoader shape). The extension's scripts run
    // in every page the user opens.
    // (Extension test harnesses start a browser with one too: at install time, or on the user's
    // shortcuts, only.)
    else if (
      /--load-extension\b/i.test(c.text) &&
      BROWSER_TARGET.test(text) &&
      (installTime || /\.lnk\b|CreateShortcut|\.desktop\b/i.test(text))
    )
      add(
        c,
        'script.persistence',
        'install_script_injection',
        "makes the user's browser load an extension on every start (--load-extension on its shortcuts or command line)",
      );
  }
  // A fork bomb: a function that pipes itself into itself in the background, then is called.
  const bomb = lines.find((l) =>
    /(?<![\w:.])([\w:.]+)\s*\(\)\s*\{\s*\1\s*\|\s*\1\s*&\s*\}\s*;\s*\1/.test(l.text),
  );
  if (bomb)
    add(
      { line: bomb.line, text: bomb.text, words: [], background: false },
      'script.destructive',
      'malicious_code',
      "starts a fork bomb (exhausts the machine's processes)",
    );
  // Credential or wallet paths gathered anywhere in the script (a list in a variable, an archive
  // of them) and a command that uploads a file: the collection is what it sends.
  const secretLine = uploads.length
    ? lines.find((l) => {
        const t = substitute(l.text, vars, dialect)
          .replace(/\$\{?HOME\}?|%USERPROFILE%|\$env:USERPROFILE/gi, '~')
          // Folders created or permissions set (`mkdir -p ~/.ssh && chmod 700 ~/.ssh`) are set up.
          .replace(/\b(?:mkdir|md|chmod|chown|chgrp|touch|New-Item)\b[^;&|\n]*/gi, '');
        // A file being written (`> ~/.npmrc`, `Out-File`) is set up, not collected.
        return SENSITIVE_PATH.test(t) && !/>>?\s*["']?\S*$|\bout-file\b|\bset-content\b|\btee\b/i.test(t);
      })
    : undefined;
  if (secretLine && !secretReads.some((r) => r.sends))
    secretReads.unshift({ c: { ...uploads[0]!, line: secretLine.line, text: secretLine.text }, sends: true });
  if (secretReads.length) {
    const sent = secretReads.find((r) => r.sends);
    const scriptSends = cmds.some((c) => NET_SEND.test(base(programOf(c).prog)));
    const first = sent ?? secretReads[0]!;
    if (sent || scriptSends)
      add(
        first.c,
        'script.secret-file-exfil',
        'data_exfiltration',
        'reads credential or key files and sends them over the network',
      );
    else
      add(
        first.c,
        'script.secret-file-read',
        'data_exfiltration',
        'reads credential or key files (SSH keys, cloud or npm credentials, browser or wallet data)',
      );
  }
  for (const f of executable) {
    if (hits.some((h) => h.rule === 'script.download-execute')) break;
    const d = downloads.get(f)!;
    hits.push(
      scriptHit(
        'shell.download-chmod-run',
        'install_script_injection',
        `downloads ${f} and makes it executable`,
        d.line,
        '',
        { variant: installTime ? 'install' : undefined },
      ),
    );
  }
  return hits;
}
