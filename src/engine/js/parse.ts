/**
 * Parsing: meriyah for JavaScript (fast, pure JS, ESTree), @babel/parser with its `estree` and
 * `typescript` plugins for TypeScript files. Both produce ESTree-shaped nodes with
 * `start`/`end` offsets (lines are computed only where a finding needs one).
 * A file that fails to parse is retried with the offending line blanked (a few times), so one
 * stray statement does not hide the rest of the file from the syntax-tree rules.
 */
import { parse as meriyahParse } from 'meriyah';
import { parse as babelParse } from '@babel/parser';
import type { AstNode } from './values';

export interface ParsedComment {
  text: string;
  /** Offset of the comment in the source. */
  start: number;
}

export interface ParseOutcome {
  ast?: AstNode;
  comments: ParsedComment[];
  error?: string;
  /** Lines blanked to get a parse. */
  repairedLines: number[];
  ms: number;
}

const TS_EXT = /\.(?:[cm]?tsx?)$/i;

export function isTypeScriptPath(p: string): boolean {
  return TS_EXT.test(p) && !/\.d\.[cm]?ts$/i.test(p);
}

function looksLikeModule(src: string, path: string): boolean {
  if (/\.mjs$|\.mts$/i.test(path)) return true;
  if (/\.cjs$|\.cts$/i.test(path)) return false;
  if (src.includes('import.meta')) return true;
  return /(?:^|[\n;])\s*(?:import\s*[\w{*"'$]|export\s*(?:default|const|let|var|function|class|async|\{|\*))/.test(
    src.slice(0, 200_000),
  );
}

const BREAK = /[\n\r\u2028\u2029]/;

/** Offset where the line holding `at` starts. */
function lineStart(text: string, at: number): number {
  let a = at;
  while (a > 0 && !BREAK.test(text[a - 1]!)) a--;
  return a;
}

/** The line holding offset `at` replaced by spaces (line breaks and offsets kept). */
function blankLine(text: string, at: number): string {
  const a = lineStart(text, at);
  let b = at;
  while (b < text.length && !BREAK.test(text[b]!)) b++;
  return text.slice(0, a) + ' '.repeat(b - a) + text.slice(b);
}

function errorOffset(err: unknown): number | undefined {
  const e = err as { start?: unknown; pos?: unknown; range?: unknown };
  if (typeof e?.start === 'number') return e.start;
  if (typeof e?.pos === 'number') return e.pos;
  if (Array.isArray(e?.range) && typeof e.range[0] === 'number') return e.range[0] as number;
  return undefined;
}

function errorLine(err: unknown): number | undefined {
  const e = err as { loc?: { start?: { line?: number }; line?: number }; line?: number };
  return e?.loc?.start?.line ?? e?.loc?.line ?? e?.line;
}

function parseOnce(src: string, path: string, comments: ParsedComment[]): AstNode {
  if (isTypeScriptPath(path)) {
    const file = babelParse(src, {
      sourceType: looksLikeModule(src, path) ? 'module' : 'unambiguous',
      plugins: ['estree', 'typescript', ...(/x$/i.test(path) ? (['jsx'] as const) : [])],
      errorRecovery: true,
      allowReturnOutsideFunction: true,
      allowImportExportEverywhere: true,
    }) as unknown as { program: AstNode; comments?: { value: string; start: number }[] };
    for (const c of file.comments ?? []) comments.push({ text: c.value, start: c.start });
    return file.program;
  }
  const jsx = /\.jsx$/i.test(path) || /\.js$/i.test(path);
  const first = looksLikeModule(src, path);
  const attempt = (module: boolean, withJsx: boolean): AstNode => {
    comments.length = 0;
    return meriyahParse(src, {
      module,
      next: true,
      ranges: true,
      webcompat: !module,
      jsx: withJsx,
      globalReturn: !module,
      onComment: (_type: string, value: string, start: number) => {
        if (comments.length < 5000) comments.push({ text: value, start });
      },
    } as Parameters<typeof meriyahParse>[1]) as unknown as AstNode;
  };
  const tries: [boolean, boolean][] = [
    [first, false],
    [!first, false],
  ];
  if (jsx) tries.push([first, true]);
  let lastErr: unknown;
  for (const [m, j] of tries) {
    try {
      return attempt(m, j);
    } catch (err) {
      if (err instanceof RangeError) throw err; // too deep: retrying will not help
      lastErr = err;
    }
  }
  throw lastErr;
}

/**
 * The brackets of a source (strings, template literals, regular expressions and comments skipped
 * roughly): the closers that have no opener before them, in order, and the openers left open at
 * the end. `strict`: undefined at the first closer that does not match.
 */
function bracketBalance(src: string, strict: boolean): { unopened: string[]; open: string[] } | undefined {
  const stack: string[] = [];
  const unopened: string[] = [];
  const pairs: Record<string, string> = { '(': ')', '[': ']', '{': '}' };
  for (let i = 0; i < src.length && i < 2_000_000; i++) {
    const c = src[i]!;
    if (c === '/' && src[i + 1] === '/') {
      const nl = src.indexOf('\n', i);
      if (nl < 0) break;
      i = nl;
    } else if (c === '/' && src[i + 1] === '*') {
      const end = src.indexOf('*/', i + 2);
      if (end < 0) break;
      i = end + 1;
    } else if (c === '"' || c === "'" || c === '`') {
      let j = i + 1;
      while (j < src.length && src[j] !== c && !(c !== '`' && src[j] === '\n')) j += src[j] === '\\' ? 2 : 1;
      i = j;
    } else if (pairs[c]) stack.push(pairs[c]);
    else if (c === ')' || c === ']' || c === '}') {
      if (stack[stack.length - 1] === c) stack.pop();
      else if (strict || stack.length) return undefined;
      else unopened.push(c);
    }
  }
  return { unopened, open: stack };
}

/**
 * The brackets left open at the end of a source, closed in order: code cut off or commented out
 * half-way (`req.on('error', (e) => { // … });`) still parses, with what it had before the cut.
 */
export function closeOpenBrackets(src: string): string | undefined {
  const open = bracketBalance(src, true)?.open;
  return open?.length && open.length <= 50 ? `${src}\n${open.reverse().join('')}\n` : undefined;
}

/**
 * A fragment cut out of a file (a patch hunk: it starts and ends inside blocks) made whole: the
 * brackets closed before it opened ahead of it, the ones left open closed after it. `inClass`:
 * the outermost block it closes (or, closing none, the fragment itself) is read as a class body,
 * where methods are written. Undefined when the brackets cross (`{ )`).
 */
export function wholeFragment(src: string, inClass: boolean): string | undefined {
  const b = bracketBalance(src, false);
  if (!b || b.unopened.length > 50 || b.open.length > 50) return undefined;
  const mirror: Record<string, string> = { ')': '(', ']': '[', '}': '{' };
  const openers = b.unopened.map((c) => mirror[c]!).reverse();
  let head = openers.join('');
  let tail = '';
  if (inClass) {
    if (b.unopened.length === 0) head = 'class Fragment {';
    else if (openers[0] === '{') head = `class Fragment { fragment() {${openers.slice(1).join('')}`;
    else return undefined;
    tail = '}';
  }
  return `${head}${src}\n${b.open.reverse().join('')}${tail}\n`;
}

export function parseSource(src: string, path: string, maxRepairs = 6): ParseOutcome {
  const t0 = performance.now();
  const comments: ParsedComment[] = [];
  const repairedLines: number[] = [];
  let text = src;
  let closed = false;
  let undo: { text: string; line: number; at: number; retried: boolean } | undefined;
  for (let i = 0; i <= maxRepairs; i++) {
    try {
      const ast = parseOnce(text, path, comments);
      return { ast, comments, repairedLines, ms: performance.now() - t0 };
    } catch (err) {
      const line = errorLine(err);
      const msg =
        err instanceof RangeError ? 'nesting too deep for the parser' : String((err as Error).message ?? err);
      // The source ends inside open brackets: close them once and try again.
      if (!closed && /end of (?:source|file|input)|Unexpected EOF/i.test(msg)) {
        closed = true;
        const fixed = closeOpenBrackets(text);
        if (fixed !== undefined) {
          text = fixed;
          continue;
        }
      }
      if (err instanceof RangeError || !line || repairedLines.includes(line) || text.length > 2_000_000) {
        return { comments: [], error: msg.slice(0, 200), repairedLines, ms: performance.now() - t0 };
      }
      // Blank the failing line by the error's offset when the parser gives one: parsers count a
      // lone \r (or U+2028) as a line break, so their line numbers can differ from '\n' lines.
      const at = errorOffset(err);
      if (at !== undefined && at >= 0 && at <= text.length) {
        // The error moved to the next line after a repair: the stray text was the line before
        // the first error (`name\n  port: 443` fails on `port`); blank that one instead.
        if (undo && line === undo.line + 1 && !undo.retried) {
          text = undo.text;
          const start = lineStart(text, undo.at);
          const prev =
            start > 0
              ? lineStart(text, start - 1 - (text[start - 1] === '\n' && text[start - 2] === '\r' ? 1 : 0))
              : -1;
          if (prev >= 0) {
            text = blankLine(text, prev);
            undo = { ...undo, retried: true };
            continue;
          }
        }
        repairedLines.push(line);
        undo = { text, line, at, retried: false };
        text = blankLine(text, at);
      } else {
        repairedLines.push(line);
        const lines = text.split('\n');
        lines[line - 1] = ' '.repeat((lines[line - 1] ?? '').length);
        text = lines.join('\n');
      }
    }
  }
  return { comments: [], error: 'could not be parsed', repairedLines, ms: performance.now() - t0 };
}

/** Parse only, for the benchmark's "bare parse" baseline (same parser, same options). */
export function bareParse(src: string, path: string): boolean {
  try {
    parseOnce(src, path, []);
    return true;
  } catch {
    return false;
  }
}
