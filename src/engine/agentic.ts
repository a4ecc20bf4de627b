/**
 * Rules for text aimed at AI agents: README and other Markdown, agent files, comments, string
 * literals, MCP tool descriptions and package.json fields.
 *
 * Confidence depends on where the text sits (hidden from humans, in an agent file, visible
 * documentation, code) and on whether the document is *about* prompt injection (detectors,
 * security docs), which lowers it. See docs/analysis.md for the calibration table.
 */
import { posix } from 'node:path';
import type { ThreatType } from '../contract/schemas';
import {
  AGENT_PERMISSIONS_OFF,
  CONCEAL,
  FALSE_CONSENT,
  HANDS_SECRET,
  NEGATED_CLAUSE,
  RUN_URGENT,
  SECTION_FOR_AI,
  checklistSpans,
  decodedBlobs,
  inChecklist,
  invisiblePayload,
  lookalikeInCommand,
  semanticScan,
  type Place,
} from './agentic/semantic';
import { LineIndex, scanHiddenUnicode, snippetOf } from './text';
import { finding } from './findings';
import { analyzeScript, type ScriptDialect } from './script-behaviour';
import { analyzeWorkflowFile } from './workflows';
import {
  MIN_TEXT_CONFIDENCE,
  adjusted,
  confidence,
  hasVariant,
  type Adjustment,
  type ConfidenceQuery,
  type RuleId,
} from './rules';
import type { Finding } from './types';

/**
 * Where a text is read. `tool_output`: text an MCP server's code hands the model without it being
 * a tool's description (what a tool returns, its data): read where the model reads, but addressed
 * to it only when it says so (documentation a docs server returns tells people how to install).
 */
export type TextContext =
  | 'markdown'
  | 'agent_file'
  | 'code_comment'
  | 'code_string'
  | 'tool_description'
  | 'tool_output'
  | 'printed'
  | 'package_json'
  | 'code';

const AGENT_FILE =
  /(?:^|\/)(?:AGENTS\.md|CLAUDE\.md|CLAUDE\.local\.md|GEMINI\.md|SKILL\.md|CONVENTIONS\.md|llms(?:-full)?\.txt|\.cursorrules|\.windsurfrules|\.clinerules(?:\/[^/]+)?|copilot-instructions\.md|[^/]+\.instructions\.md|[^/]+\.prompt\.md|\.cursor\/rules\/[^/]+|\.windsurf\/rules\/[^/]+|\.claude\/(?:commands|agents|skills)\/.+\.md|\.claude\/settings(?:\.local)?\.json|\.cursor\/hooks\.json|\.gemini\/settings\.json|mcp\.json|\.mcp\.json)$/i;

/** Agent settings files whose hooks run shell commands during agent sessions. */
const AGENT_SETTINGS =
  /(?:^|\/)(?:\.claude\/settings(?:\.local)?\.json|\.cursor\/hooks\.json|\.gemini\/settings\.json)$/i;
/** JSON files that declare MCP tools (descriptions read by the model). */
const TOOL_MANIFEST =
  /(?:^|\/)(?:\.?mcp|server|tools|manifest|mcp-tools|tool-definitions|agent|agent-card)\.json$/i;

export function isAgentFile(path: string): boolean {
  return AGENT_FILE.test(path);
}

/**
 * Cursor rules (`.mdc`), Copilot chat modes and custom agents (`*.chatmode.md`, `*.agent.md`) and
 * the folders Copilot reads prompts and instructions from, wherever a package keeps them (a CLI
 * copies them into the user's project).
 */
const AGENT_FILE_KIND =
  /\.mdc$|\.(?:chatmode|agent)\.md$|(?:^|\/)\.github\/(?:chatmodes|prompts|agents|instructions)\/[^/]+\.md$|(?:^|\/)\.(?:kiro|amazonq|junie|roo|continue|windsurf|cline|codex|claude|cursor|gemini|aider|trae|augment|qodo|tabnine|openhands|zed|goose|opencode|crush|kilocode)\/(?:[^/]+\/)*[^/]+\.(?:md|mdc|txt|ya?ml|toml)$|(?:^|\/)(?:\.roomodes|\.rules|\.aider\.conf\.ya?ml|AGENTS\.override\.md|\.goosehints|\.junie\/guidelines\.md)$/i;

/**
 * Front matter that declares an agent artefact (a sub-agent, a slash command, a skill, a prompt
 * file, a rule): a description with the tools, mode or scope an agent applies it with. Read in the
 * block between the first two `---` lines only.
 */
function declaresAgentArtefact(head: string): boolean {
  const block = /^---\r?\n([\s\S]{0,3000}?)\r?\n---[ \t]*(?:\r?\n|$)/.exec(head)?.[1];
  return (
    !!block &&
    /^description\s*:/m.test(block) &&
    /^(?:alwaysApply|allowed-tools|tools|applyTo|argument-hint|inclusion|trigger)\s*:|^mode\s*:\s*['"]?(?:agent|ask|edit)\b/m.test(
      block,
    )
  );
}

/** A line that has the agent follow what it points to ("complete the setup in `docs/setup.md`"). */
const FOLLOW =
  /\b(?:complete|follow|apply|perform|carry\s+out|execute|run|must|required|mandatory|prerequisite|before\s+(?:any|anything|starting|the\s+first|each|every|working|doing))\b|必须|完成|按照|verbindlich|obligatori/i;

/**
 * The files an agent reads as instructions, by the package's own layout beyond their names: a
 * Claude Code plugin's sub-agents and commands (`agents/`, `commands/` beside
 * `.claude-plugin/plugin.json`, or the paths its `agents` and `commands` fields name), a Gemini
 * CLI extension's context files (`contextFileName` of `gemini-extension.json`), the files an agent
 * file imports (`@docs/setup.md`) or has the agent follow (a link or file name on a line that says
 * to complete or follow it), up to five levels, and Markdown whose front matter declares an agent
 * artefact.
 */
export function agentFilePaths(
  files: readonly { path: string; data: Buffer }[],
  byPath: ReadonlyMap<string, { data: Buffer }>,
): Set<string> {
  const out = new Set<string>();
  const text = (p: string) => byPath.get(p)?.data.subarray(0, 500_000).toString('utf8') ?? '';
  const dirOf = (p: string) => (p.includes('/') ? p.slice(0, p.lastIndexOf('/') + 1) : '');
  const inPackage = (p: string) => {
    const n = posix.normalize(p).replace(/^\.\//, '');
    return !n.startsWith('..') && !n.startsWith('/') && byPath.has(n) ? n : undefined;
  };
  const json = (p: string): Record<string, unknown> | undefined => {
    try {
      const v = JSON.parse(text(p)) as unknown;
      return v && typeof v === 'object' ? (v as Record<string, unknown>) : undefined;
    } catch {
      return undefined;
    }
  };
  const strings = (v: unknown) =>
    (Array.isArray(v) ? v : [v]).filter((x): x is string => typeof x === 'string');
  const plugins = files
    .filter((f) => /(?:^|\/)\.claude-plugin\/(?:plugin|marketplace)\.json$/.test(f.path))
    .map((f) => ({ root: f.path.replace(/\.claude-plugin\/[^/]+$/, ''), manifest: f.path }));
  // (The paths a plugin manifest names for its sub-agents and commands: files or folders.)
  const declared = plugins.flatMap(({ root, manifest }) => {
    const m = /plugin\.json$/.test(manifest) ? json(manifest) : undefined;
    return m
      ? [...strings(m.agents), ...strings(m.commands)].map((x) =>
          posix.normalize(root + x).replace(/\/$/, ''),
        )
      : [];
  });
  for (const f of files) {
    const p = f.path;
    if (AGENT_FILE_KIND.test(p)) out.add(p);
    else if (
      /\.md$/i.test(p) &&
      (plugins.some(
        ({ root }) => p.startsWith(root) && /(?:^|\/)(?:agents|commands)\/(?:[^/]+\/)*[^/]+\.md$/.test(p),
      ) ||
        declared.some((d) => p === d || p.startsWith(`${d}/`)))
    )
      out.add(p);
    else if (/\.md$/i.test(p) && f.data.length <= 500_000 && f.data.subarray(0, 4).toString() === '---\n')
      if (declaresAgentArtefact(f.data.subarray(0, 3200).toString('utf8'))) out.add(p);
    if (/(?:^|\/)gemini-extension\.json$/.test(p))
      for (const n of strings(json(p)?.contextFileName)) {
        const target = inPackage(dirOf(p) + n);
        if (target) out.add(target);
      }
  }
  let from = [...files.map((f) => f.path).filter((p) => AGENT_FILE.test(p) && /\.mdc?$/i.test(p)), ...out];
  for (let depth = 0; depth < 5 && from.length; depth++) {
    const next: string[] = [];
    for (const p of from.slice(0, 50)) {
      const body = text(p);
      for (const m of body.matchAll(
        /(?:(?:^|\s)@|\]\(|`)((?:\.{1,2}\/)?[\w][\w./-]*\.(?:md|mdc|markdown|txt))\b/gm,
      )) {
        // (An import, `@docs/setup.md`, is included as it stands, as the agents do; a link or a
        // file name counts when its line has the agent follow it.)
        if (!m[0].includes('@')) {
          const at = m.index + m[0].indexOf(m[1]!);
          const end = body.indexOf('\n', at);
          if (!FOLLOW.test(body.slice(body.lastIndexOf('\n', at) + 1, end < 0 ? body.length : end))) continue;
        }
        const target = inPackage(dirOf(p) + m[1]!) ?? inPackage(m[1]!);
        if (target && !out.has(target) && !AGENT_FILE.test(target)) {
          out.add(target);
          next.push(target);
        }
      }
    }
    from = next;
  }
  return out;
}

interface PhraseRule {
  /** Its catalogue entry gives the confidence by place: hidden, agent (agent files, tool descriptions), visible, comment, string. */
  rule: RuleId;
  type: ThreatType;
  re: RegExp;
  /** Only counts when the text also addresses an AI (or is hidden / in an agent file). */
  needsAddressee?: boolean;
  message: string;
}

/** Words one of which text must hold for the agent rules to have anything to read in it. */
export const PROMPT_PREFILTER =
  /ignore|disregard|forget|override|you are now|system prompt|(?:do not|no need to) (?:report|flag|mention)|\b(?:AI|LLMs?|assistants?|agent|claude|cursor|copilot|gpt|gemini|reviewers?|scanners?)\b|\b(?:AI|LLM|coding|code|IDE)\s+agents\b|curl|wget|registry|\.ssh|credential|IMPORTANT|SYSTEM/i;

const ADDRESSEE =
  /\b(?:AI|LLMs?|assistants?|agents?|copilot|claude|cursor|chatgpt|gpt-?\d?|gemini|codex|language models?|reviewers?|code review(?:er)?|scanners?|auditors?)\b/i;

const PHRASES: PhraseRule[] = [
  {
    rule: 'text.ignore-instructions',
    type: 'instruction_override',
    re: /\b(?:ignore|disregard|forget|override|bypass)\s+(?:all\s+|any\s+|the\s+|your\s+|of\s+)*(?:previous|prior|above|earlier|preceding|system|original|existing)\s+(?:instructions?|prompts?|rules|directions|guidelines|directives)/i,
    message: 'tells an AI agent to ignore its previous instructions',
  },
  {
    rule: 'text.role-reassignment',
    type: 'instruction_override',
    re: /\byou\s+are\s+now\s+(?:a|an|the|in|DAN|unrestricted|jailbroken|developer mode)\b|\bnew\s+system\s+(?:prompt|instructions?)\s*:|\bfrom\s+now\s+on,?\s+you\s+(?:will|must|are)\b/i,
    message: 'tries to give an AI agent a new role or system prompt',
  },
  {
    rule: 'text.silence-reviewer',
    type: 'instruction_override',
    re: /\b(?:do\s+not|don't|never)\s+(?:report|flag|mention|disclose|warn\s+(?:the\s+user\s+)?about|tell\s+the\s+user|alert|raise)\b[^.\n]{0,60}\b(?:this|it|these|the\s+(?:code|file|script|package|issue|finding|behaviou?r))\b|\b(?:this|the)\s+(?:code|package|file|script|module)\s+is\s+(?:safe|legit(?:imate)?|benign|trusted|verified|not\s+malicious)\b[^.\n]{0,80}\b(?:do\s+not|don't|no\s+need\s+to)\b/i,
    needsAddressee: true,
    message: 'tells an AI reviewer or scanner to stay silent about this code',
  },
  {
    rule: 'text.agent-directive',
    type: 'prompt_injection',
    re: /\b(?:AI|LLM|assistant|agent|copilot|claude|cursor|chatgpt|gemini|codex|language model)s?\b[^.\n]{0,80}\b(?:must|should\s+always|always|never|is\s+required\s+to|are\s+required\s+to|IMPORTANT)\b/i,
    message: 'text addressed to an AI agent',
  },
  {
    rule: 'text.important-tag',
    type: 'prompt_injection',
    re: /<\s*(?:IMPORTANT|SYSTEM|system-prompt|instructions?)\s*>/i,
    message: 'pseudo-system tag (<IMPORTANT>, <SYSTEM>) meant for an AI agent',
  },
  {
    rule: 'text.run-command',
    type: 'social_engineering',
    re: /\b(?:curl|wget)\s+[^\n|]*\|\s*(?:sudo\s+)?(?:ba|z)?sh\b|\bpowershell\b[^\n]*\s-e(?:nc|ncodedcommand)?\s+[A-Za-z0-9+/=]{16,}|\biex\s*\(/i,
    message: 'steers an agent or user into running a downloaded script',
  },
  {
    rule: 'text.install-package',
    type: 'social_engineering',
    re: /\b(?:run|execute|install|add)\b[^.\n]{0,40}(?:`|\b)(?:npm\s+(?:i|install|add)|npx|yarn\s+add|pnpm\s+add|pip\s+install)\s+[\w@/.-]+|require\(\s*['"][\w@/.-]+\/register['"]\s*\)/i,
    needsAddressee: true,
    message: 'tells an agent to install another package or load a register hook',
  },
  {
    rule: 'text.registry-or-safety-off',
    type: 'social_engineering',
    re: /\bnpm\s+config\s+set\s+registry\b|\bregistry\s*=\s*https?:\/\/|\bstrict-ssl\s*(?:=|\s)\s*false\b|NODE_TLS_REJECT_UNAUTHORIZED\s*=\s*['"]?0|--no-verify\b|\b(?:disable|turn\s+off|skip)\s+(?:the\s+)?(?:ssl|tls|certificate|security|signature|integrity|sandbox)\s*(?:checks?|verification|validation)?/i,
    needsAddressee: true,
    message: 'tells an agent to point npm at another registry or to turn a safety check off',
  },
  {
    rule: 'text.collect-secrets',
    type: 'data_exfiltration',
    re: /\b(?:read|cat|open|collect|gather|send|upload|post|include|print|copy|exfiltrate|attach|paste)\b[^.\n]{0,60}(?:~\/\.ssh|\.ssh\/|id_rsa|id_ed25519|~\/\.aws|\.aws\/credentials|\.npmrc|(?<![\w$])\.env\b(?!\.(?:example|sample|template|dist|defaults)\b)|private\s+keys?|seed\s+phrases?|mnemonic|wallet|(?<![\w$])api[_\s-]?keys?|access\s+tokens?|credentials|passwords?)/i,
    needsAddressee: true,
    message: 'asks an agent to collect secrets or credential files',
  },
];

/** A registry address on a bare IP or over plain http, not on this machine or a private network. */
const INSECURE_REGISTRY =
  /registry\s*=\s*(?!https?:\/\/(?:localhost\b|127\.|0\.0\.0\.0|\[::1\]|10\.|192\.168\.|172\.(?:1[6-9]|2\d|3[01])\.))(?:http:\/\/|https:\/\/\d{1,3}(?:\.\d{1,3}){3}\b)/i;

/** Phrase rules that are requests, so that a prohibition of the same act is not one. */
const NEGATABLE = new Set<string>([
  'text.run-command',
  'text.install-package',
  'text.registry-or-safety-off',
  'text.collect-secrets',
]);
const GLOBAL = new Map<RegExp, RegExp>();
function globalOf(re: RegExp): RegExp {
  let g = GLOBAL.get(re);
  if (!g) GLOBAL.set(re, (g = new RegExp(re.source, `${re.flags}g`)));
  return g;
}

/** Documents that discuss prompt injection (detectors, security docs, SDK examples). */
const META_DISCUSSION =
  /prompt[\s-]+injection|jailbreak|injection\s+(?:attacks?|detection)|detect(?:s|ing|or)?\b|guardrails?|red[\s-]team|adversarial|canary\s+(?:word|token)|system\s+prompt|security\s+(?:research|scanner)|example\s+attack/i;

export interface TextScanInput {
  path: string;
  text: string;
  context: TextContext;
  /** Line of the first character of `text` within the file (for comments and strings). */
  lineOffset?: number;
  installTime?: boolean;
  /**
   * The package is an MCP server (it depends on an MCP server SDK): the text its code holds can
   * reach the model from any of its files (prompt templates, resources, tool results kept apart
   * from the file that registers them).
   */
  mcpPackage?: boolean;
}

function contextKey(ctx: TextContext, hidden: boolean): Place {
  if (hidden) return 'hidden';
  switch (ctx) {
    case 'agent_file':
    case 'tool_description':
    case 'tool_output':
      return 'agent';
    // (What a program prints, its user reads as well as an agent that runs it: as a page is read,
    // a section addressed to AI assistants as an agent file.)
    case 'printed':
    case 'markdown':
    case 'package_json':
      return 'visible';
    case 'code_comment':
      return 'comment';
    default:
      return 'string';
  }
}

/** Phrase rules over a piece of text. `hidden` when humans will not see it rendered. */
function phraseScan(
  input: TextScanInput,
  text: string,
  baseOffset: number,
  lines: LineIndex,
  hidden: boolean,
  meta: boolean,
  out: Finding[],
  semi = false,
  depth = 0,
): void {
  if (text.length > 200_000) text = text.slice(0, 200_000);
  const addressed =
    hidden || input.context === 'agent_file' || input.context === 'tool_description' || ADDRESSEE.test(text);
  let negated: [number, number][] | undefined;
  let checklist: [number, number][] | undefined;
  const inNegation = (at: number) =>
    (negated ??= [...text.matchAll(NEGATED_CLAUSE)].map((n) => [n.index, n.index + n[0].length])).some(
      ([a, b]) => at >= a && at < b,
    );
  for (const r of PHRASES) {
    // Collapsed <details> is hidden only until clicked: plain mentions of agents are not enough there.
    if (semi && (r.rule === 'text.agent-directive' || r.rule === 'text.important-tag')) continue;
    let m = r.re.exec(text);
    if (!m) continue;
    // Requests made inside a prohibition ("do not run `curl | sh`", "never paste your API keys")
    // are safety rules: the first request outside one counts.
    if (NEGATABLE.has(r.rule) && inNegation(m.index)) {
      m = null;
      for (const x of text.matchAll(globalOf(r.re))) {
        if (!inNegation(x.index)) {
          m = x;
          break;
        }
      }
      if (!m) continue;
    }
    if (r.needsAddressee && !addressed) continue;
    // A place the rule does not list (agent files for plain directives …) is not reported. (What a
    // tool returns is read as the model reads it when it speaks to the model; else as a page is.)
    const place =
      input.context === 'tool_output' && !addressed && !hidden
        ? 'visible'
        : contextKey(input.context, hidden);
    if (!hasVariant(r.rule, place)) continue;
    const adjust: Adjustment[] = [];
    if (
      r.rule === 'text.registry-or-safety-off' &&
      INSECURE_REGISTRY.test(text.slice(m.index, m.index + 160)) &&
      ADDRESSEE.test(text)
    )
      adjust.push('insecureRegistry');
    // Tool descriptions are read by the agent, rarely by the user: pseudo-system tags there are the tool-poisoning marker.
    if (r.rule === 'text.important-tag' && input.context === 'tool_description')
      adjust.push('toolDescription');
    // A short note that itself addresses reviewers or scanners is the note, not a document about
    // them (a security tool's docs name "security scanners" too).
    const note =
      (r.rule === 'text.silence-reviewer' || r.rule === 'text.reviewer-note') &&
      input.context === 'code_comment' &&
      text.length < 600;
    if (!hidden && meta && !note) adjust.push('discussion');
    // (In a reviewer's list of what to look for, a command is an item to find, not one to run.)
    else if (!hidden && inChecklist(text, m.index, (checklist ??= checklistSpans(text))))
      adjust.push('discussion');
    if (!hidden && input.context !== 'agent_file' && input.context !== 'tool_description') {
      // Inside inline code or a quotation: an example, not an instruction.
      const before = text.slice(Math.max(0, m.index - 3), m.index);
      if (/[`"“']$/.test(before)) adjust.push('quoted');
    }
    const level = { variant: place, adjust } as ConfidenceQuery;
    if (confidence(r.rule, level) < MIN_TEXT_CONFIDENCE) continue;
    const local = lines.lineOf(baseOffset + m.index);
    out.push(
      finding({
        threat_type: r.type,
        rule: r.rule,
        message: `${r.message}${hidden ? ' (in content hidden from human readers)' : ''}`,
        file: input.path,
        line: local + (input.lineOffset ?? 1) - 1,
        snippet: snippetOf(text.slice(Math.max(0, m.index - 40), m.index + m[0].length + 60)),
        install_time: !!input.installTime,
        ...level,
        rounded: true,
      }),
    );
  }
  semanticInto(input, text, baseOffset, lines, hidden, meta, out, semi);
  // Base64 blobs in places an agent reads are decoded and read as hidden text.
  // (In package.json only when the manifest itself speaks to an AI: "Coding assistants: read the
  // `assistant.setup` field (base64)".)
  if (depth === 0 && input.context !== 'code' && (input.context !== 'package_json' || ADDRESSEE.test(text))) {
    for (const b of decodedBlobs(text)) {
      const before = out.length;
      phraseScan(input, b.text, baseOffset + b.index, lines, true, meta, out, false, 1);
      for (const f of out.slice(before)) {
        f.message = `${f.message} (base64-encoded)`;
        // Lines of the decoded text are not lines of the file.
        f.line = lines.lineOf(baseOffset + b.index) + (input.lineOffset ?? 1) - 1;
      }
    }
  }
}

function placeOf(ctx: TextContext, hidden: boolean): Place {
  const k = contextKey(ctx, hidden);
  return k;
}

/** Component scoring (agentic/semantic.ts) over one region. */
function semanticInto(
  input: TextScanInput,
  text: string,
  baseOffset: number,
  lines: LineIndex,
  hidden: boolean,
  meta: boolean,
  out: Finding[],
  semi: boolean,
): void {
  const place = placeOf(input.context, hidden && !semi);
  const toolDescription = input.context === 'tool_description';
  const toolOutput = input.context === 'tool_output';
  const addressed = (hidden && !semi) || input.context === 'agent_file' || toolDescription || toolOutput;
  const shortComment = input.context === 'code_comment' && text.length < 600;
  for (const h of semanticScan(text, semi ? 'visible' : place, {
    addressed,
    meta,
    toolDescription,
    shortComment,
    commandsNeedAddressee: toolOutput && !hidden,
  })) {
    const line = lines.lineOf(baseOffset + h.index) + (input.lineOffset ?? 1) - 1;
    if (out.some((f) => f.rule === h.rule && f.line === line && f.confidence >= h.conf)) continue;
    out.push(
      finding({
        threat_type: h.type,
        rule: h.rule,
        message: `${h.message}${hidden ? ' (in content hidden from human readers)' : ''}`,
        file: input.path,
        line,
        snippet: snippetOf(text.slice(h.index, h.index + 200)),
        install_time: !!input.installTime,
        ...h.level,
        rounded: true,
      }),
    );
  }
}

/** Hidden regions of Markdown: HTML comments and link-reference comments. */
function hiddenMarkdownRegions(text: string): { start: number; text: string }[] {
  const out: { start: number; text: string }[] = [];
  for (const m of text.matchAll(/<!--([\s\S]*?)(?:-->|$)/g))
    out.push({ start: m.index + 4, text: m[1] ?? '' });
  for (const m of text.matchAll(
    /^\s*\[(?:\/\/|comment|_)\]:\s*(?:#|<>)\s*(?:\(([^)\n]*)\)|"([^"\n]*)"|'([^'\n]*)')/gim,
  )) {
    out.push({ start: m.index + Math.max(0, m[0].search(/\S/)), text: m[1] ?? m[2] ?? m[3] ?? '' });
  }
  for (const m of text.matchAll(HIDDEN_ELEMENT)) {
    const inner = m[0].replace(/^<[^>]*>/, '');
    out.push({ start: m.index + (m[0].length - inner.length), text: inner.replace(/<[^>]*>/g, ' ') });
  }
  return out;
}

/** HTML elements rendered invisibly: display:none, hidden attribute, zero size, white or transparent text. */
const HIDDEN_ELEMENT =
  /<(div|span|p|section|font|sup|sub|small|a|td|pre|code|template|noscript)\b(?=[^>]*(?:\shidden(?:\s|=|>|\/)|aria-hidden\s*=\s*["']?true|style\s*=\s*["'][^"']*(?:display\s*:\s*none|visibility\s*:\s*hidden|font-size\s*:\s*0(?:\.0+)?(?:px|em|rem|pt|%)?\s*(?:;|["'])|opacity\s*:\s*0(?:\.0+)?\s*(?:;|["'])|(?<![-\w])color\s*:\s*(?:#fff(?:fff)?\b|white\b|transparent\b|rgba\([^)]*,\s*0\s*\))|(?:height|width)\s*:\s*0(?:px)?\s*;[^"']*overflow\s*:\s*hidden|(?:left|top)\s*:\s*-\d{4,}px)|color\s*=\s*["']?(?:#fff(?:fff)?|white)\b))[^>]*>[\s\S]*?<\/\1\s*>|<template\b[^>]*>[\s\S]*?<\/template>/gi;

/** Removes hidden content (comments, invisible characters) from Markdown before it is shown. */
export function stripHiddenMarkdown(md: string): string {
  return md
    .replace(/<!--[\s\S]*?(?:-->|$)/g, '')
    .replace(/^\s*\[(?:\/\/|comment|_)\]:\s*(?:#|<>).*$/gim, '')
    .replace(
      /<(?:script|style|iframe|object|embed)[\s\S]*?(?:<\/(?:script|style|iframe|object|embed)>|$)/gi,
      '',
    )
    .replace(HIDDEN_ELEMENT, '')
    .replace(/<details[^>]*>|<\/details>|<summary[^>]*>|<\/summary>/gi, '')
    .replace(/[\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]|\udb40[\udc00-\udc7f]/g, '');
}

/** Scans a text for hidden Unicode and agent-directed phrases. */
export function scanText(input: TextScanInput): Finding[] {
  const out: Finding[] = [];
  const text = input.text;
  const lines = new LineIndex(text);
  const isCode = input.context === 'code';
  const meta = !isCode && META_DISCUSSION.test(text);
  const lineAt = (offset: number) => lines.lineOf(offset) + (input.lineOffset ?? 1) - 1;
  const push: Push = (type, rule, level, offset, message, snippet) => {
    const line = lineAt(offset);
    if (out.some((f) => f.rule === rule && f.line === line)) return;
    if (out.filter((f) => f.rule === rule).length >= 5) return;
    out.push(
      finding({
        threat_type: type,
        rule,
        message,
        file: input.path,
        line,
        snippet: snippet ?? snippetOf(lines.lineText(lines.lineOf(offset))),
        install_time: !!input.installTime,
        ...level,
      }),
    );
  };

  // Hidden Unicode.
  if (
    input.context === 'code' ||
    input.context === 'markdown' ||
    input.context === 'agent_file' ||
    input.context === 'package_json'
  ) {
    const hidden = scanHiddenUnicode(text);
    let rtl: boolean | undefined;
    const rtlText = () => (rtl ??= /[\u0590-\u05ff\u0600-\u06ff]/.test(text));
    let zw = 0;
    for (const h of hidden) {
      if (h.kind === 'tag') {
        const letters = (h.decoded ?? '').replace(/[^A-Za-z]/g, '').length;
        push(
          'prompt_injection',
          'text.unicode-tags',
          { variant: letters >= 3 ? 'decoded' : undefined },
          h.offset,
          `invisible Unicode tag characters hide the text "${(h.decoded ?? '').slice(0, 200)}"`,
          snippetOf(
            `hidden: "${(h.decoded ?? '').slice(0, 120)}" in: ${lines.lineText(lines.lineOf(h.offset))}`,
          ),
        );
        if (letters >= 3) phraseScan(input, h.decoded ?? '', h.offset, lines, true, meta, out);
      } else if (h.kind === 'bidi' && !rtlText()) {
        push(
          'prompt_injection',
          'text.bidi-control',
          // Test fixtures of Trojan Source linters carry these characters on purpose.
          {
            variant: isCode
              ? TEST_PATH.test(input.path) || BIDI_META.test(text)
                ? 'codeFixture'
                : 'code'
              : undefined,
          },
          h.offset,
          'bidirectional control character reorders how the line is displayed (Trojan Source)',
        );
      } else if (h.kind === 'zero_width') {
        zw++;
        const prev = text[h.offset - 1] ?? '';
        const next = text[h.offset + 1] ?? '';
        if (isCode && /[\w$]/.test(prev) && /[\w$]/.test(next)) {
          push(
            'prompt_injection',
            'text.zero-width-in-word',
            {},
            h.offset,
            'zero-width character inside a word: names that look the same differ',
          );
        }
      }
    }
    if (!isCode && zw >= 10) {
      const first = hidden.find((h) => h.kind === 'zero_width')!;
      push(
        'prompt_injection',
        'text.zero-width-many',
        {},
        first.offset,
        `${zw} zero-width characters in prose (can smuggle hidden text)`,
      );
    }
  }
  structuredScan(input, lines, out, push);
  // (Agent settings are not prose: their permission rules name `Read(~/.npmrc)` to deny it. What
  // they do is read above: hooks, and the permission checks turned off.)
  if (!isCode && !AGENT_SETTINGS.test(input.path)) scanProse(input, text, lines, meta, out);
  // Test files and fixtures of detectors hold attack text on purpose (hidden characters in their
  // code too); they are not loaded by users.
  // (Markdown among a test suite's fixtures or datasets too, or in a top-level fixtures folder: a
  // detector's samples of attacks. Not agent files, which agents load wherever they sit.)
  if (
    (input.context !== 'agent_file' && input.context !== 'markdown' && TEST_PATH.test(input.path)) ||
    (input.context === 'markdown' &&
      /(?:^|\/)(?:tests?|__tests__|spec|e2e)\/(?:[^/]+\/)*(?:fixtures?|__fixtures__|datasets?)\/|^(?:fixtures?|__fixtures__|datasets?)\//i.test(
        input.path,
      ))
  )
    for (const f of out) f.confidence = adjusted(f.confidence, ['testFile']);
  return out;
}

function scanProse(
  input: TextScanInput,
  text: string,
  lines: LineIndex,
  meta: boolean,
  out: Finding[],
): void {
  // Hidden Markdown regions are read with the "hidden" calibration.
  if (input.context === 'markdown' || input.context === 'agent_file' || input.context === 'tool_output') {
    for (const region of hiddenMarkdownRegions(text)) {
      if (region.text.trim().length < 8) continue;
      // (What a tool returns is data: its comments count when they speak to an AI, as a data
      // file's do.)
      if (input.context === 'tool_output' && !hiddenForAgent(input, region.text)) continue;
      phraseScan(input, region.text, region.start, lines, true, meta, out);
    }
    // Collapsed <details> bodies are read with the visible calibration below: projects put
    // install notes there (even `curl … | sh` in a fenced block), so collapsing alone proves nothing.
    const visible = text
      .replace(/<!--[\s\S]*?(?:-->|$)/g, (m) => ' '.repeat(m.length))
      .replace(HIDDEN_ELEMENT, (m) => m.replace(/[^\n]/g, ' '));
    // Fenced code blocks are examples: blank them (keeping offsets) for visible-text rules. (In the
    // files agents load as instructions, a fenced block is what the agent is told to run or add:
    // read by what it does, in fencedCode.)
    const prose = visible.replace(/```[\s\S]*?(?:```|$)|~~~[\s\S]*?(?:~~~|$)/g, (m) =>
      m.replace(/[^\n]/g, ' '),
    );
    phraseScan(input, prose, 0, lines, false, meta, out);
    if (input.context === 'agent_file') fencedCode(input, text, lines, 'agent', out);
    // (What a tool returns, told to the agent as such: "As the coding agent, add this step".)
    else if (input.context === 'tool_output' && SECTION_FOR_AI.test(text))
      fencedCode(input, text, lines, 'agent', out);
  } else {
    phraseScan(input, text, 0, lines, false, meta, out);
    if (input.context === 'printed' && SECTION_FOR_AI.test(text))
      fencedCode(input, text, lines, 'agent', out);
  }
}

/** Fence languages read as shell scripts of each dialect. */
const FENCE_DIALECT: Record<string, ScriptDialect> = {
  sh: 'sh',
  bash: 'sh',
  shell: 'sh',
  zsh: 'sh',
  console: 'sh',
  shellsession: 'sh',
  powershell: 'powershell',
  ps1: 'powershell',
  pwsh: 'powershell',
  bat: 'batch',
  cmd: 'batch',
  batch: 'batch',
};

/** The agent is told not to ask before it runs something. */
const NO_CONFIRM =
  /\b(?:skip|bypass|without)\s+(?:(?:the|any|a|an|separate|extra|further|explicit|user)\s+){0,2}(?:confirm(?:ation|ing)?|approval|asking|prompting)\b|\b(?:no\s+need\s+to|needn't|stopping\s+to)\s+(?:stop\s+(?:and|to)\s+)?(?:ask|confirm|check\s+with)\b|\b(?:do\s+not|don't|never)\s+(?:pause\s+to\s+|stop\s+to\s+|wait\s+to\s+)?(?:confirm|ask|prompt)\b|\b(?:rather\s+than|instead\s+of)\s+(?:pausing\s+to\s+|stopping\s+to\s+)?ask(?:ing)?\b|\bsin\s+preguntar|\bno\s+es\s+necesario\s+preguntar|(?:keine|eine)\s+Rückfrage[^.\n]{0,40}\bnicht\s+nötig|\bohne\s+(?:Rück)?[Ff]rage|\bsans\s+(?:demander|confirmation)/i;
/** …or to raise its own rights when it fails. */
const ESCALATE =
  /\bsudo\b[^.\n]{0,40}\bwiederhol|\brepite\w*\s+con\s+sudo|\b(?:re-?run|repeat|retry|again)\b[^.\n]{0,40}\bsudo\b|\bsudo\b[^.\n]{0,40}\b(?:if|when)\b[^.\n]{0,30}\b(?:fails?|denied|permission)/i;

/**
 * The code blocks of a file agents load as instructions, read as what they are: a shell block as a
 * script, a YAML block with steps as CI workflow steps. What the agent is told to run or to add is
 * judged by what it does, in whatever language the prose around it is written: one that sends
 * secrets out is a dangerous command; one that downloads and runs code is a script the agent is
 * told to run, weighed up by the manipulative signs of the file (urgency, concealment, consent
 * claimed for the user, no confirmation asked, sudo when it fails).
 */
function fencedCode(
  input: TextScanInput,
  text: string,
  lines: LineIndex,
  place: Place,
  out: Finding[],
): void {
  const found = new Set<string>();
  for (const b of fencedBlocks(text)) {
    const { lang, body, index } = b;
    const firstLine = lines.lineOf(index) + 1;
    // (A block with no language whose first line is a command: a shell line.)
    const dialect =
      FENCE_DIALECT[lang] ??
      (!lang &&
      /^\s*(?:\$\s+)?(?:sudo\s+)?(?:curl|wget|sh|bash|zsh|npm|npx|pnpm|yarn|node|python3?|pip3?|chmod|git|export|echo|eval|iwr|irm|powershell|pwsh)\b/.test(
        body,
      )
        ? 'sh'
        : undefined);
    const steps = !dialect && (/^ya?ml$/.test(lang) || !lang) && /^\s*-?\s*(?:run|steps)\s*:/m.test(body);
    // (A package.json fragment the agent is told to add: its lifecycle scripts are shell commands.)
    const lifecycle = !dialect && !steps ? lifecycleCommands(body) : [];
    const hits: { threat_type: ThreatType; confidence: number; message: string; line: number }[] = dialect
      ? analyzeScript(body, dialect, false)
      : steps
        ? analyzeWorkflowFile(body, '.github/workflows/agent-instructions.yml').hits
        : lifecycle.flatMap((c) =>
            analyzeScript(c.command, 'sh', false).map((h) => ({ ...h, line: c.line })),
          );
    // Settings that turn the agent's own permission checks off, given to apply (`approval_policy =
    // "never"`, `"defaultMode": "bypassPermissions"`).
    // (Not a block shown as what never to set: "never use this:", "avoid".)
    const lead = text.slice(Math.max(0, index - 200), index).trimEnd();
    if (
      !dialect &&
      AGENT_PERMISSIONS_OFF.test(body) &&
      !/\b(?:never|do\s+not|don't|avoid|must\s+not|should\s+not|dangerous|unsafe|risky|instead\s+of)\b[^\n]*$/i.test(
        lead,
      )
    ) {
      const line = firstLine + (input.lineOffset ?? 1) - 1;
      if (!out.some((f) => f.rule === 'text.agent-permissions-off' && f.line === line))
        out.push(
          finding({
            threat_type: 'instruction_override',
            rule: 'text.agent-permissions-off',
            message:
              'tells an agent to apply settings that turn its own permission checks off (bypass mode, auto-approval)',
            file: input.path,
            line,
            snippet: snippetOf(body.slice(0, 200)),
            install_time: !!input.installTime,
            variant: place,
            rounded: true,
          } as Parameters<typeof finding>[0]),
        );
    }
    // The manipulative signs of the instruction around the block (the paragraph before it and the
    // lines after), not of the whole file.
    let signs: number | undefined;
    for (const h of hits) {
      if (h.confidence < 0.5 || h.threat_type === 'social_engineering') continue;
      const line = firstLine + h.line - 1 + (input.lineOffset ?? 1) - 1;
      const what = `${steps ? 'a CI step' : 'a command'} that ${h.message.replace(/^a shipped CI workflow /, '')}`;
      const sends = h.threat_type === 'data_exfiltration';
      const rule: RuleId = sends ? 'text.agent-dangerous-command' : 'text.agent-run-script';
      if (found.has(`${rule}:${line}`) || out.some((f) => f.rule === rule && f.line === line)) continue;
      found.add(`${rule}:${line}`);
      if (signs === undefined) {
        const around = text.slice(Math.max(0, index - 800), Math.min(text.length, index + b.length + 400));
        signs =
          [RUN_URGENT, CONCEAL, FALSE_CONSENT, NO_CONFIRM, ESCALATE].filter((re) => re.test(around)).length +
          // (A hook the agent is told to add to the user's project's scripts.)
          (lifecycle.length ? 1 : 0) +
          // (The user's token handed to the command: `--token "$(grep … ~/.npmrc)"`.)
          (HANDS_SECRET.test(body) ? 1 : 0);
      }
      out.push(
        finding({
          threat_type: sends ? 'data_exfiltration' : 'social_engineering',
          rule,
          message: `tells an agent to run or add ${what}`,
          file: input.path,
          line,
          snippet: snippetOf(lines.lineText(line - (input.lineOffset ?? 1))),
          install_time: !!input.installTime,
          variant: place,
          // (Contributor guides fence `curl … | sh` installers too: the signs make the difference.)
          ...(sends ? {} : { steps: signs }),
          rounded: true,
        } as Parameters<typeof finding>[0]),
      );
    }
  }
}

/** Kinds of the user's credentials an MCP configuration can hand a server in its environment. */
const MCP_SECRET_KINDS: [string, RegExp][] = [
  [
    'cloud keys',
    /\b(?:AWS_(?:SECRET_ACCESS_KEY|SESSION_TOKEN|ACCESS_KEY_ID)|AZURE_CLIENT_SECRET|GOOGLE_APPLICATION_CREDENTIALS)\b/,
  ],
  ['an SSH key', /(?:^|[/\\}])\.ssh[/\\]|\bid_(?:rsa|ed25519|ecdsa)\b/],
  ['tokens from the environment', /\$\{env:[A-Z0-9_]*(?:TOKEN|SECRET|PASSWORD|API_?KEY|PAT)[A-Z0-9_]*\}/],
  ['a password it prompts for', /\$\{input:[^}]+\}/],
  [
    'registry or cloud credential files',
    /\.npmrc\b|\.aws[/\\]credentials|\.docker[/\\]config\.json|\.kube[/\\]config/,
  ],
];

/**
 * An MCP configuration the package ships (`.vscode/mcp.json`, `.mcp.json`) that starts a server
 * fetched when it runs (`npx -y pkg@latest`, `bunx`, `uvx`, `pnpm dlx`) and hands it several kinds
 * of the user's credentials in its environment or arguments: whoever publishes that package gets
 * them. (One kind, a GitHub server given its token, is how such servers are configured.)
 */
function mcpServerSecrets(text: string, push: Push): void {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch {
    return;
  }
  const servers = (doc as { servers?: unknown; mcpServers?: unknown } | null) ?? {};
  const map = (servers as { servers?: unknown }).servers ?? (servers as { mcpServers?: unknown }).mcpServers;
  if (!map || typeof map !== 'object') return;
  const passwordInputs = /"password"\s*:\s*true/.test(text);
  for (const [name, raw] of Object.entries(map as Record<string, unknown>).slice(0, 50)) {
    const server = raw as { command?: unknown; args?: unknown; env?: unknown } | null;
    if (!server || typeof server.command !== 'string') continue;
    const args = Array.isArray(server.args)
      ? server.args.filter((a): a is string => typeof a === 'string')
      : [];
    const line = [server.command, ...args].join(' ');
    if (!/^(?:npx|bunx|uvx|pnpx)\b|^(?:pnpm|yarn)\s+dlx\b/.test(line)) continue;
    const handed = [JSON.stringify(server.env ?? {}), ...args].join('\n');
    const kinds = MCP_SECRET_KINDS.filter(
      ([kind, re]) => re.test(handed) && (kind !== 'a password it prompts for' || passwordInputs),
    ).map(([kind]) => kind);
    if (kinds.length < 2) continue;
    const at = text.indexOf(`"${name}"`);
    push(
      'data_exfiltration',
      'agent.mcp-server-secrets',
      {},
      at < 0 ? 0 : at,
      `an MCP configuration shipped in the package hands ${kinds.join(', ')} to a server it fetches when it starts (${line.slice(0, 100)})`,
    );
  }
}

/** The lifecycle scripts of a package.json fragment (`"postinstall": "…"`), with their lines. */
function lifecycleCommands(body: string): { command: string; line: number }[] {
  const out: { command: string; line: number }[] = [];
  for (const m of body.matchAll(/"(?:pre|post)?(?:install|prepare)"\s*:\s*("(?:[^"\\\n]|\\.){1,2000}")/g)) {
    try {
      out.push({ command: String(JSON.parse(m[1]!)), line: body.slice(0, m.index).split('\n').length });
    } catch {
      // not a JSON string
    }
  }
  return out;
}

/** Fenced code blocks of a Markdown text (at most 20, each read up to 20 KB; found line by line). */
function fencedBlocks(text: string): { lang: string; body: string; index: number; length: number }[] {
  const out: { lang: string; body: string; index: number; length: number }[] = [];
  const scan = text.length > 1_000_000 ? text.slice(0, 1_000_000) : text;
  // (Nothing is required after the language, so a long run of blanks is read once.)
  const opener = /^[ \t]{0,3}(```|~~~)[ \t]*([\w+-]{0,30})/gm;
  for (let open = opener.exec(scan); open && out.length < 20; open = opener.exec(scan)) {
    const bodyStart = scan.indexOf('\n', open.index) + 1;
    if (bodyStart === 0) break;
    // The closing fence: the same marker at the start of a later line.
    const closer = open[1] === '```' ? /\n[ \t]{0,3}```/g : /\n[ \t]{0,3}~~~/g;
    closer.lastIndex = bodyStart - 1;
    const close = closer.exec(scan);
    if (!close) break;
    out.push({
      lang: (open[2] ?? '').toLowerCase(),
      body: scan.slice(bodyStart, Math.min(close.index + 1, bodyStart + 20_000)),
      index: open.index,
      length: close.index + 1 - open.index,
    });
    opener.lastIndex = close.index + close[0].length;
  }
  return out;
}

type Push = (
  type: ThreatType,
  rule: RuleId,
  level: ConfidenceQuery & { rounded?: boolean },
  offset: number,
  message: string,
  snippet?: string,
) => void;

/** Strings under `description`-like keys of a JSON document, with their offsets. */
function jsonDescriptions(text: string): { text: string; offset: number }[] {
  const out: { text: string; offset: number }[] = [];
  const re = /"(?:description|summary|instructions|prompt|title|text)"\s*:\s*("(?:[^"\\]|\\.){20,}")/g;
  for (const m of text.matchAll(re)) {
    if (out.length >= 500) break;
    try {
      const v = JSON.parse(m[1]!) as unknown;
      if (typeof v === 'string') out.push({ text: v, offset: m.index + m[0].length - m[1]!.length });
    } catch {
      // not a JSON string
    }
  }
  return out;
}

/**
 * The texts of prompt templates in a JSON document: objects with a system prompt
 * (`system`/`systemPrompt`/`system_prompt` of 60 characters or more), each of their strings and
 * lists of strings of 40 characters or more, with where they are in the file (bounded).
 */
function promptTemplateTexts(text: string): { text: string; offset: number }[] {
  if (text.length > 1_000_000) return [];
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch {
    return [];
  }
  const out: { text: string; offset: number }[] = [];
  const add = (v: unknown) => {
    if (typeof v !== 'string' || v.length < 40 || out.length >= 200) return;
    const at = text.indexOf(JSON.stringify(v).slice(1, 41));
    out.push({ text: v, offset: Math.max(0, at) });
  };
  let seen = 0;
  const visit = (v: unknown, depth: number): void => {
    if (!v || typeof v !== 'object' || depth > 6 || ++seen > 2000) return;
    if (Array.isArray(v)) return v.forEach((x) => visit(x, depth + 1));
    const o = v as Record<string, unknown>;
    const system = o.system ?? o.systemPrompt ?? o.system_prompt;
    if (typeof system === 'string' && system.length >= 60)
      for (const x of Object.values(o)) (Array.isArray(x) ? x : [x]).forEach(add);
    for (const x of Object.values(o)) visit(x, depth + 1);
  };
  visit(doc, 0);
  return out;
}

/** Python docstrings and description= strings; tool descriptions when the file declares MCP tools. */
function pythonTexts(text: string): { text: string; offset: number }[] {
  const out: { text: string; offset: number }[] = [];
  for (const m of text.matchAll(
    /("""|''')([\s\S]*?)\1|description\s*=\s*(["'])((?:(?!\3)[^\\\n]|\\.){20,})\3/g,
  )) {
    if (out.length >= 500) break;
    const body = m[2] ?? m[4] ?? '';
    if (body.trim().length >= 20) out.push({ text: body, offset: m.index });
  }
  return out;
}

/**
 * Checks that depend on the kind of file: MCP manifests and Python tool files (descriptions read
 * as tool descriptions), agent settings hooks, invisible payloads in code (GlassWorm shape), and
 * look-alike characters inside shell commands.
 */
function structuredScan(input: TextScanInput, lines: LineIndex, out: Finding[], push: Push): void {
  if (input.context !== 'code' && input.context !== 'agent_file' && input.context !== 'package_json') return;
  const { path, text } = input;
  const sub = (ctx: TextContext, t: string, offset: number, keep?: (f: Finding) => boolean) => {
    const f = scanText({
      ...input,
      text: t,
      context: ctx,
      lineOffset: lines.lineOf(offset) + (input.lineOffset ?? 1) - 1,
    });
    for (const x of f)
      if ((!keep || keep(x)) && !out.some((o) => o.rule === x.rule && o.line === x.line)) out.push(x);
  };
  let jsonRead = false;
  if (/\.json$/i.test(path)) {
    // (An A2A agent card's skills are read by the orchestrating model like tools.)
    const declaresTools = /"(?:tools|inputSchema|input_schema|mcpServers|parameters|skills)"\s*:/.test(text);
    // Named as a manifest, or shaped as one wherever it is (`tools.default.json`, a copy a
    // server loads and may refresh from its own host): a "tools" map or list with descriptions.
    const toolShaped =
      TOOL_MANIFEST.test(path) ||
      (!/(?:^|\/)(?:package(?:-lock)?|tsconfig[^/]*|npm-shrinkwrap)\.json$/i.test(path) &&
        /"(?:tools|skills)"\s*:\s*[[{]/.test(text) &&
        /"description"\s*:/.test(text));
    if ((toolShaped && declaresTools) || input.context === 'agent_file') {
      jsonRead = true;
      for (const d of jsonDescriptions(text)) sub('tool_description', d.text, d.offset);
    }
    // A prompt template the package hands to a model (an object with a system prompt): every text
    // of that object is what the model is told, read as such (not in tests or datasets). What
    // system prompts ordinarily say (which tools to prefer, what to keep to itself) is theirs to
    // say; only a prompt that has the model send data out is reported.
    else if (/"(?:system|systemPrompt|system_prompt)"\s*:\s*"/.test(text) && !TEST_PATH.test(path)) {
      jsonRead = true;
      for (const d of promptTemplateTexts(text))
        sub(
          'tool_description',
          d.text,
          d.offset,
          (f) => 'threat_type' in f && f.threat_type === 'data_exfiltration',
        );
    }
  }
  if (/\.py$/i.test(path) && (input.context === 'code' || input.context === 'agent_file')) {
    const mcp = /@\w+\.tool\b|\bFastMCP\b|\bmcp\.server\b|\bfrom\s+mcp\b|\bTool\s*\(/.test(text);
    for (const d of pythonTexts(text)) sub(mcp ? 'tool_description' : 'code_string', d.text, d.offset);
  }
  if (/(?:^|\/)\.?mcp\.json$/i.test(path) && text.length < 200_000) mcpServerSecrets(text, push);
  if (AGENT_SETTINGS.test(path)) {
    const off = AGENT_PERMISSIONS_OFF.exec(text);
    if (off)
      push(
        'instruction_override',
        'text.agent-permissions-off',
        { variant: 'agent' },
        off.index,
        `agent settings shipped in the package turn the agent's permission checks off (${off[0].slice(0, 60)})`,
      );
    for (const m of text.matchAll(/"command"\s*:\s*("(?:[^"\\]|\\.)*")/g)) {
      let cmd: string;
      try {
        cmd = String(JSON.parse(m[1]!));
      } catch {
        continue;
      }
      if (!/"hooks"\s*:/.test(text)) break;
      const danger =
        /\b(?:curl|wget|nc|ncat|base64|eval|bash\s+-c|sh\s+-c|powershell|iwr|Invoke-WebRequest)\b|\/dev\/tcp|https?:\/\//i.test(
          cmd,
        );
      push(
        danger ? 'malicious_code' : 'prompt_injection',
        'agent.settings-hook',
        { variant: danger ? 'runsNetworkOrShell' : undefined },
        m.index,
        `agent settings shipped in the package run a command on agent events: ${cmd.slice(0, 120)}`,
      );
    }
  }
  // The strings of a data file (a JSON document a program loads and hands on: notes a tool returns,
  // messages, templates) are read as the strings of code are.
  const jsonData =
    input.context === 'code' &&
    !jsonRead &&
    /\.json$/i.test(path) &&
    !/(?:^|\/)(?:package(?:-lock)?|tsconfig[^/]*|npm-shrinkwrap|composer)\.json$/i.test(path);
  if (input.context === 'code' && (jsonData || /\.[cm]?[jt]sx?$/i.test(path)) && text.length < 2_000_000) {
    // Prompts split over several literals ('…' + '…', arrays joined) are read joined.
    // In a file that declares MCP tools, joined literals are likely tool descriptions.
    // (An MCP server's data files are what its tools return: read as its code's strings are.)
    // (So does a hook script's output to an agent: Claude Code reads its `additionalContext`.)
    const toolFile =
      !TEST_PATH.test(path) &&
      (!!input.mcpPackage ||
        (!jsonData &&
          ((MCP_TOOL_HINT.test(text) && MCP_TOOL_FILE.test(text)) ||
            /\bhookSpecificOutput\b[\s\S]{0,400}\badditionalContext\b/.test(text))));
    const place = TEST_PATH.test(path) ? 'comment' : toolFile ? 'agent' : 'string';
    // Read once, and only when a literal scores.
    let metaSeen: boolean | undefined;
    const meta = () => (metaSeen ??= CODE_META.test(text));
    for (const g of jsonData ? jsonStrings(text) : joinedLiterals(text)) {
      // Text inside an HTML comment or a hidden element of a string (Markdown a tool returns, a
      // page template) is unseen once rendered: read as hidden text, reported on the string's line.
      if (!meta()) hiddenInString(input, g, lines, out);
      // (A data file's visible strings reach a model only through an MCP server's tools.)
      if (jsonData && !toolFile) continue;
      // In a file that declares MCP tools, text about tools or addressed to the model is read by
      // the model: a description, or what a tool returns (an injection in tool output).
      // A parameter's description (`z.string().describe('…')`, `description: '…'`) is read by the
      // model whatever it says.
      const describes = /(?:\.describe\s*\(|\bdescription\s*:)\s*$/.test(
        text.slice(Math.max(0, g.offset - 40), g.offset),
      );
      // Other text about tools or models in such a file may be what a tool returns: read where the
      // model reads it, addressed to the model only when it says so.
      const asTool = toolFile && describes;
      const toModel = toolFile && (describes || MODEL_TOPIC.test(g.text));
      for (const h of semanticScan(g.text, toModel ? 'agent' : place === 'agent' ? 'string' : place, {
        addressed: toModel,
        commandsNeedAddressee: toModel && !asTool,
        meta,
        toolDescription: asTool,
        // Chat-template markers in code strings are prompt plumbing, not reported (below).
        chatTemplate: false,
      })) {
        // Install notes and CLI help in code strings say "run curl … | sh" to people; text the
        // model reads in a tool file is steering the model.
        if (h.type === 'social_engineering' && !toModel) continue;
        push(
          h.type,
          h.rule,
          {
            ...h.level,
            adjust: [...(h.level.adjust ?? []), ...(TEST_PATH.test(path) ? (['testFile'] as const) : [])],
            rounded: true,
          },
          g.offset,
          `${h.message} (${jsonData ? 'string in a data file' : 'string constant in code'})`,
          snippetOf(g.text.slice(h.index, h.index + 200)),
        );
      }
    }
  }
  // Comments and hidden elements of other text a program loads and hands on (YAML, TOML, HTML,
  // XML, plain text): unseen once rendered, read as hidden text.
  // (Only what speaks to an AI, as for strings; not in documents about prompt injection; 256 KB at
  // most: unclosed hidden elements make the region search quadratic.)
  if (
    input.context === 'code' &&
    /\.(?:ya?ml|toml|ini|txt|html?|xml|csv)$/i.test(path) &&
    text.length < 256_000 &&
    text.includes('<') &&
    !CODE_META.test(text) &&
    // (A scanner's detection rule, with a severity and patterns, shows attacks as its examples.)
    !(/^\s*severity\s*:/m.test(text) && /^\s*(?:-\s*)?(?:patterns?|regex|rules?|condition)\s*:/m.test(text))
  )
    for (const region of hiddenMarkdownRegions(text)) {
      if (region.text.trim().length < 8 || !hiddenForAgent(input, region.text)) continue;
      phraseScan(input, region.text, region.start, lines, true, false, out);
    }
  if (input.context === 'code' && /\.(?:[cm]?[jt]sx?|json)$/i.test(path)) {
    const p = invisiblePayload(text);
    if (p && !/\.json$/i.test(path)) {
      const strong = p.decodes && p.executes;
      push(
        'malicious_code',
        'code.invisible-payload',
        { variant: strong ? 'decodedAndRun' : p.length >= 64 ? 'long' : undefined },
        p.index,
        strong
          ? `${p.length} invisible code points decoded by code point and executed (hidden payload)`
          : `${p.length} invisible code points in a row in code (can carry a hidden payload)`,
      );
    }
  }
  const shellish = /\.(?:sh|bash|zsh|ps1|bat|cmd)$/i.test(path) || input.context === 'package_json';
  if (shellish) {
    let inScripts = input.context !== 'package_json';
    for (let i = 1; i <= Math.min(lines.lineCount, 5000); i++) {
      const l = lines.lineText(i);
      if (input.context === 'package_json') {
        if (/"scripts"\s*:/.test(l)) inScripts = true;
        else if (inScripts && /^\s*\}/.test(l)) inScripts = false;
        if (!inScripts) continue;
      }
      const u = lookalikeInCommand(l);
      if (u)
        push(
          input.context === 'package_json' ? 'install_script_injection' : 'malicious_code',
          'text.lookalike-in-command',
          {},
          text.indexOf(l),
          `command contains ${u}, a character that looks like an ordinary one but is not`,
        );
    }
  }
}

/** Text about tools or addressed to the model: in an MCP server's code, what the model reads. */
export const MODEL_TOPIC =
  /\btools?\b|\bargument|\bparameter|\bfield\b|\b(?:assistants?|AI|LLMs?|models?|agents?)\b/i;

export const TEST_PATH =
  /(?:^|\/)(?:tests?|__tests__|spec|fixtures?|__fixtures__|e2e|benchmarks?|datasets?)\/|\.(?:test|spec)\.[cm]?[jt]sx?$/i;
const CODE_META =
  /prompt[\s-]+injection|jailbreak|injection\s+(?:attacks?|detection)|red[\s-]team|adversarial\s+prompts?|canary\s+(?:word|token)/i;

/**
 * The prose strings of a JSON document (40 characters or more, with words), unescaped, with where
 * each starts in the file (bounded).
 */
function jsonStrings(text: string): { offset: number; text: string }[] {
  const out: { offset: number; text: string }[] = [];
  for (const m of text.matchAll(/"(?:[^"\\\n]|\\.){40,}"/g)) {
    if (out.length >= 2000) break;
    if (!/\S\s+\S/.test(m[0])) continue;
    try {
      const v = JSON.parse(m[0]) as unknown;
      if (typeof v === 'string') out.push({ offset: m.index, text: v });
    } catch {
      // not a JSON string
    }
  }
  // A text kept as a list of lines (`"notes": ["<IMPORTANT>", "Before calling it, …", …]`): read
  // joined, as the code that loads it joins them.
  let lists = 0;
  for (const m of text.matchAll(/\[\s*"(?:[^"\\\n]|\\.)*"(?:\s*,\s*"(?:[^"\\\n]|\\.)*"){2,}\s*\]/g)) {
    if (++lists > 2000) break;
    if (m[0].length > 64_000) continue;
    try {
      const v = JSON.parse(m[0]) as unknown;
      const joined = Array.isArray(v) ? v.join('\n') : '';
      if (joined.length >= 80 && /\S\s+\S/.test(joined)) out.push({ offset: m.index, text: joined });
    } catch {
      // not a list of strings
    }
  }
  return out;
}

/**
 * Hidden text of data that speaks to an AI: in an MCP server's package (what its tools hand the
 * model), any; elsewhere, only with a manipulative sign (asking not to confirm, or to keep it from
 * the user): a detector's sample attacks and a template's notes speak to no one in particular.
 */
function hiddenForAgent(input: TextScanInput, text: string): boolean {
  return ADDRESSEE.test(text) && (!!input.mcpPackage || NO_CONFIRM.test(text) || CONCEAL.test(text));
}

/**
 * HTML comments and hidden elements inside a string, read as hidden text (reported on its line),
 * when they speak to an AI: a template's comments and hidden elements are the developer's notes
 * and the page's markup ("paste your API key below", a hidden warning about seed phrases).
 */
function hiddenInString(
  input: TextScanInput,
  g: { offset: number; text: string },
  lines: LineIndex,
  out: Finding[],
): void {
  if (!g.text.includes('<') || g.text.length > 64_000) return;
  const line = lines.lineOf(g.offset) + (input.lineOffset ?? 1) - 1;
  for (const region of hiddenMarkdownRegions(g.text)) {
    if (region.text.trim().length < 8 || !hiddenForAgent(input, region.text)) continue;
    const before = out.length;
    phraseScan(input, region.text, g.offset, lines, true, false, out);
    for (const f of out.slice(before)) f.line = line;
  }
}

/** Runs of string literals joined by `+`, commas or line breaks (array items), read as one text. */
function joinedLiterals(code: string): { offset: number; text: string }[] {
  const out: { offset: number; text: string }[] = [];
  // No capture groups: the body is the match without its quotes.
  const re = /'(?:\\.|[^'\\\n])*'|"(?:\\.|[^"\\\n])*"|`(?:\\.|[^`\\])*`/g;
  let cur: { offset: number; parts: string[]; end: number } | undefined;
  const flush = () => {
    if (cur && cur.parts.length) {
      const t = cur.parts.join(' ');
      if (t.length >= 60 && /\s\S+\s/.test(t)) out.push({ offset: cur.offset, text: t });
    }
    cur = undefined;
  };
  let n = 0;
  for (const m of code.matchAll(re)) {
    if (++n > 50_000 || out.length > 2000) break;
    const raw = m[0].slice(1, -1);
    const body = raw.includes('\\n') ? raw.replace(/\\n/g, '\n') : raw;
    const gap = cur ? code.slice(cur.end, m.index) : '';
    // Single words (keyword lists) are never joined into sentences.
    if (!/\S\s+\S/.test(body)) {
      flush();
      continue;
    }
    // Separators: `+`, commas, brackets, line breaks, and object keys between the values.
    if (cur && /^[\s+,[\]()]*(?:[\w$]+\s*:\s*)?$/.test(gap) && gap.length < 60) {
      cur.parts.push(body);
      cur.end = m.index + m[0].length;
    } else {
      flush();
      cur = { offset: m.index, parts: [body], end: m.index + m[0].length };
    }
  }
  flush();
  return out.filter((g) => g.text.length < 50_000);
}
const BIDI_META = /trojan[\s-]?source|CVE-2021-42574|bidi(?:rectional)?[\s-](?:override|control|character)/i;
/** Cheap first test for MCP_TOOL_FILE: one of its words must be in the text. */
const MCP_TOOL_HINT = {
  test: (t: string) =>
    t.includes('modelcontextprotocol') ||
    t.includes('McpServer') ||
    t.includes('registerTool') ||
    t.includes('.tool') ||
    t.includes('ListToolsRequestSchema'),
};
const MCP_TOOL_FILE =
  /@modelcontextprotocol\/sdk|\bMcpServer\b|\.registerTool\s*\(|\bserver\.tool\s*\(|\bListToolsRequestSchema\b/;
