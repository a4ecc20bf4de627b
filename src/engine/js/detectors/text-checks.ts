/**
 * Text rules for code files, run on every file whether it parsed or not: encoder output
 * (JSFuck, aaencode, jjencode, packers), miner names, code pushed out of view by blanks, and,
 * for files without a syntax tree, fallbacks for decoded eval, serialised environments and
 * obfuscator identifiers.
 */
import type { ThreatType } from '../../../contract/schemas';
import { CapabilityCollector } from '../../capabilities';
import { escapeRegExp, snippetOf, type LineIndex } from '../../text';
import { finding } from '../../findings';
import type { RuleId } from '../../rules';
import type { Finding } from '../../types';
import type { JsFileInput } from '../analyze';
import { browserMiner, cssValueLeak, MINER_WORDS, serviceWorkerHijack } from './page-hijack';

const TEXT_RULES: {
  rule: RuleId;
  re: RegExp;
  type: ThreatType;
  message: string;
  /** Literal strings one of which the text must contain for the rule to be tried (or a test). */
  gate?: string[] | RegExp;
  /** Tried only when MINER_WORDS matched the text (one pass shared with the web miner test). */
  minerWords?: boolean;
}[] = [
  {
    rule: 'text.jsfuck',
    re: /[[\]()!+]{400,}/,
    gate: ['![]', '+[]'],
    type: 'malicious_code',
    message: 'JSFuck-encoded code (only []()!+ characters)',
  },
  {
    rule: 'text.mining-pool',
    re: /stratum\+(?:tcp|ssl|tls):\/\/|["'](?:--donate-level|--cpu-max-threads-hint|--coin)["'=]|\b(?:xmrig|cpuminer|nanominer|lolminer|t-rex|nbminer)(?:\.exe)?["'`\s/]/i,
    // One case-blind test for every name (`miner` covers the four *miner names): a few
    // alternatives scan a large file much faster than one per name.
    gate: /stratum|--(?:donate-level|cpu-max-threads-hint|coin)|xmrig|miner|t-rex/i,
    minerWords: true,
    type: 'malicious_code',
    message: 'names a cryptocurrency mining pool or miner (stratum URL, miner binary or flags)',
  },
  {
    // A Monero wallet address written in a file that names a pool: a miner's configuration.
    rule: 'text.mining-pool',
    re: /["'`][48][0-9AB][1-9A-HJ-NP-Za-km-z]{93}["'`]/,
    gate: ['pool'],
    type: 'malicious_code',
    message: 'holds a Monero wallet address next to a mining pool (a miner configuration)',
  },
  {
    rule: 'text.aaencode',
    re: /ﾟωﾟﾉ\s*=|ﾟДﾟ|\(ﾟｰﾟ\)/,
    type: 'malicious_code',
    message: 'aaencode-obfuscated code',
  },
  {
    rule: 'text.jjencode',
    re: /\$=~\[\];\s*\$=\{___:\+\+\$/,
    type: 'malicious_code',
    message: 'jjencode-obfuscated code',
  },
  {
    rule: 'text.packer',
    re: /eval\s*\(\s*function\s*\(\s*p\s*,\s*a\s*,\s*c\s*,\s*k\s*,\s*e\s*,\s*[dr]\s*\)/,
    gate: ['eval'],
    type: 'malicious_code',
    message: 'Dean Edwards packer (eval(function(p,a,c,k,e,d)...))',
  },
];

/** The rules with global regexes and their gates as one test (a single pass over the text). */
const TEXT_RULES_GLOBAL = TEXT_RULES.map((r) => ({
  ...r,
  re: new RegExp(r.re.source, r.re.flags.includes('g') ? r.re.flags : `${r.re.flags}g`),
  gate: r.gate instanceof RegExp ? r.gate : r.gate && new RegExp(r.gate.map(escapeRegExp).join('|')),
}));

/** Text rules for code files: run on every file, parsed or not. */
export function textChecks(
  input: JsFileInput,
  lines: LineIndex,
  out: Finding[],
  parsed: boolean,
  comments: { text: string; start: number }[] = [],
): CapabilityCollector {
  const caps = new CapabilityCollector();
  const text = input.text;
  const push = (rule: RuleId, type: ThreatType, offset: number, message: string) => {
    const line = lines.lineOf(offset);
    if (out.some((f) => f.rule === rule && f.line === line)) return;
    const col = offset - (text.lastIndexOf('\n', offset - 1) + 1);
    const lt = lines.lineSlice(line, lines.lineLength(line) > 200 ? Math.max(0, col - 40) : 0, 300);
    out.push(
      finding({
        threat_type: type,
        rule,
        message,
        file: input.path,
        line,
        snippet: snippetOf(lt),
        install_time: input.installTime,
      }),
    );
  };
  // Encoded-code shapes count in code only: a kaomoji or a table flip in a comment is not aaencode.
  // Comments come in source order: the last one starting at or before the offset is the only
  // one that can hold it (a binary search, not a scan per match).
  if (comments.some((c, i) => i > 0 && c.start < comments[i - 1]!.start))
    comments = [...comments].sort((a, b) => a.start - b.start);
  const inComment = (offset: number) => {
    let lo = 0;
    let hi = comments.length - 1;
    let at = -1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (comments[mid]!.start <= offset) {
        at = mid;
        lo = mid + 1;
      } else hi = mid - 1;
    }
    const c = at >= 0 ? comments[at]! : undefined;
    return !!c && offset <= c.start + c.text.length + 4;
  };
  const minerWords = MINER_WORDS.test(text);
  for (const r of TEXT_RULES_GLOBAL) {
    // Each encoder leaves a literal mark; skip the whole-text scan when it is absent.
    if (r.minerWords && !minerWords) continue;
    if (r.gate && !r.gate.test(text)) continue;
    const re = r.re;
    re.lastIndex = 0;
    let tries = 0;
    for (const m of text.matchAll(re)) {
      if (tries++ > 20) break;
      if (inComment(m.index)) continue;
      push(r.rule, r.type, m.index, r.message);
      break;
    }
  }
  // Code for the pages of the site that installs the package (worker code kept in strings too).
  const sw = serviceWorkerHijack(text);
  if (sw) push('text.service-worker-hijack', 'malicious_code', sw.index, sw.message);
  const leak = cssValueLeak(text);
  if (leak && !inComment(leak.index))
    push('text.css-value-leak', 'data_exfiltration', leak.index, leak.message);
  const miner = browserMiner(text, minerWords);
  if (miner && !inComment(miner.index))
    push('text.browser-miner', 'malicious_code', miner.index, miner.message);
  // Code pushed out of view: a long run of blanks followed by code on the same line.
  const hidden = /[^\s][ \t]{150,}([^\s/*][^\n]{2,})/g;
  let n = 0;
  for (const m of hasBlankRun(text, 150) ? text.matchAll(hidden) : []) {
    if (n++ > 3) break;
    push(
      'text.whitespace-hidden-code',
      'malicious_code',
      m.index + m[0].length - m[1]!.length,
      'code pushed far to the right by a long run of blanks, out of view in an editor',
    );
  }
  if (!parsed) {
    // Fallbacks when there is no syntax tree.
    const fallbacks: { rule: RuleId; re: RegExp; type: ThreatType; message: string }[] = [
      {
        rule: 'text.eval-decoded',
        re: /\b(?:eval|Function)\s*\(\s*(?:atob|Buffer\.from)\s*\(/g,
        type: 'malicious_code',
        message: 'eval of decoded data',
      },
      {
        rule: 'text.serialize-env',
        re: /JSON\.stringify\s*\(\s*process\.env\s*\)/g,
        type: 'data_exfiltration',
        message: 'serialises the whole environment',
      },
      {
        rule: 'text.hex-identifiers',
        re: /\b_0x[0-9a-f]{4,}\b/g,
        type: 'malicious_code',
        message: 'identifiers named like _0x1a2b (obfuscator output)',
      },
    ];
    for (const r of fallbacks) {
      let c = 0;
      for (const m of text.matchAll(r.re)) {
        if (c++ > 5) break;
        push(r.rule, r.type, m.index, r.message);
      }
    }
    for (const m of text.matchAll(/process\.env(?:\.([A-Za-z_][A-Za-z0-9_]*)|\[\s*['"]([^'"]+)['"]\s*\])/g)) {
      caps.envVars.add(m[1] ?? m[2]!);
    }
    if (/\brequire\s*\(\s*['"](?:node:)?child_process['"]\s*\)/.test(text)) caps.spawns = true;
    if (/\b(?:fetch|https?\.(?:request|get)|axios\.\w+)\s*\(/.test(text)) caps.makesRequests = true;
  }
  return caps;
}

/**
 * Whether the text holds a run of at least `len` spaces and tabs. Any such run covers two
 * consecutive multiples of `len / 2`, so only those positions are read, and the run holding the
 * second of a blank pair is measured: a regex that tries a run at every character costs far more on large files.
 */
export function hasBlankRun(text: string, len: number): boolean {
  const step = len >> 1;
  const blank = (i: number) => {
    const c = text.charCodeAt(i);
    return c === 32 || c === 9;
  };
  for (let i = step; i < text.length; i += step) {
    if (!blank(i) || !blank(i - step)) continue;
    let a = i;
    let b = i;
    while (a > 0 && blank(a - 1)) a--;
    while (b + 1 < text.length && blank(b + 1)) b++;
    if (b - a + 1 >= len) return true;
  }
  return false;
}
