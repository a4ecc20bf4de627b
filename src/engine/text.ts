/* eslint-disable no-control-regex, no-misleading-character-class --
 * This module's job is to find control, invisible and combining characters and surrogate pairs. */
import { isUtf8 } from 'node:buffer';

/**
 * Text helpers: snippets with invisible characters escaped, line lookup, and the scans for
 * hidden Unicode (tag characters, zero-width characters, bidirectional controls).
 */

const INVISIBLE =
  /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u00ad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180e\u200b-\u200f\u202a-\u202e\u2060-\u206f\u3164\ufe00-\ufe0f\ufeff\uffa0\ufff0-\ufffb]|\udb40[\udc00-\udc7f]/g;

/** Escapes invisible and control characters as `\u{XXXX}` so a reader sees them. */
export function escapeInvisible(s: string): string {
  return s.replace(
    INVISIBLE,
    (ch) => `\\u{${(ch.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}}`,
  );
}

/** A short, single-line, escaped excerpt. */
export function snippetOf(s: string, max = 160): string {
  if (s.length > max * 4) s = s.slice(0, max * 4);
  const one = s
    .replace(/\r?\n/g, ' ')
    .replace(/\s{2,}/g, ' ')
    .trim();
  const cut = [...one].slice(0, max).join('');
  return escapeInvisible(cut.length < one.length ? `${cut}…` : cut);
}

/** Maps offsets to 1-based line numbers. */
export class LineIndex {
  private lineStarts: number[] | undefined;
  constructor(readonly text: string) {}
  /** Built on first use: many texts are scanned without a finding that needs a line. */
  private get starts(): number[] {
    if (!this.lineStarts) {
      const starts = [0];
      const text = this.text;
      for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
      this.lineStarts = starts;
    }
    return this.lineStarts;
  }
  lineOf(offset: number): number {
    const starts = this.starts;
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid]! <= offset) lo = mid;
      else hi = mid - 1;
    }
    return lo + 1;
  }
  columnOf(offset: number): number {
    return offset - (this.starts[this.lineOf(offset) - 1] ?? 0);
  }
  lineText(line: number, maxChars = 2000): string {
    const s = this.starts[line - 1] ?? 0;
    const e = this.starts[line] ?? this.text.length + 1;
    return this.text.slice(s, Math.min(e - 1, s + maxChars));
  }
  /** Part of a line, from a column (for snippets of long minified lines). */
  lineSlice(line: number, fromCol: number, len: number): string {
    const s = this.starts[line - 1] ?? 0;
    const e = (this.starts[line] ?? this.text.length + 1) - 1;
    return this.text.slice(Math.min(e, s + fromCol), Math.min(e, s + fromCol + len));
  }
  lineLength(line: number): number {
    const s = this.starts[line - 1] ?? 0;
    const e = this.starts[line] ?? this.text.length + 1;
    return e - 1 - s;
  }
  get lineCount(): number {
    return this.starts.length;
  }
}

/** Decodes a buffer as UTF-8 and reports whether it was valid and whether it looks binary. */
export interface DecodedText {
  text: string;
  validUtf8: boolean;
  binary: boolean;
}

/**
 * Decoded files up to 1 MB, by buffer: a package's files are decoded by several passes (its own
 * analysis, the files that require it, the package rules), once. Entries go with their buffers.
 */
const DECODED = new WeakMap<Buffer, DecodedText>();
const CACHE_MAX_BYTES = 1 << 20;

export function decodeText(buf: Buffer): DecodedText {
  const cached = DECODED.get(buf);
  if (cached) return cached;
  const n = Math.min(buf.length, 8192);
  let ctrl = 0;
  let nul = 0;
  for (let i = 0; i < n; i++) {
    const b = buf[i]!;
    if (b === 0) nul++;
    if (b < 9 || (b > 13 && b < 32)) ctrl++;
  }
  // Text may hold a stray NUL or control byte (test data); binaries are full of them.
  const binary = n > 0 && (ctrl / n > 0.05 || nul / n > 0.01);
  const validUtf8 = isUtf8(buf);
  let text = buf.toString('utf8');
  if (text.charCodeAt(0) === 0xfeff) text = ' ' + text.slice(1);
  const out = { text, validUtf8, binary };
  if (buf.length <= CACHE_MAX_BYTES) DECODED.set(buf, out);
  return out;
}

export interface HiddenUnicode {
  kind: 'tag' | 'bidi' | 'zero_width';
  offset: number;
  /** For tag runs: the hidden ASCII text. */
  decoded?: string;
  chars: string;
}

const EMOJI_BEFORE = /[\u{1F000}-\u{1FAFF}\u{2600}-\u{27BF}\u{FE0F}\u{1F3FB}-\u{1F3FF}]$/u;
const EMOJI_AFTER = /^[\u{1F000}-\u{1FAFF}\u{2600}-\u{27BF}\u{2640}\u{2642}\u{FE0F}]/u;

/**
 * Finds tag-character runs (except emoji subdivision flags), bidirectional controls and
 * zero-width characters (except the joiners used inside emoji and in scripts that need them).
 */
/** True when the text holds only ASCII: no hidden, invisible or look-alike code point can be in it. */
export function isAscii(text: string): boolean {
  // The same file's text is asked about by several rules in a row.
  if (text !== lastAscii.text) lastAscii = { text, ascii: !NON_ASCII.test(text) };
  return lastAscii.ascii;
}

let lastAscii = { text: '', ascii: true };

const NON_ASCII = /[^\x00-\x7f]/;

export function scanHiddenUnicode(text: string): HiddenUnicode[] {
  const out: HiddenUnicode[] = [];
  // Every character looked for below is outside ASCII: most code files are skipped in one pass.
  if (isAscii(text)) return out;
  // Tag characters U+E0000–U+E007F are the surrogate pair \uDB40 \uDC00–\uDC7F.
  const tagRun = /(?:\udb40[\udc00-\udc7f])+/g;
  for (const m of text.includes('\udb40') ? text.matchAll(tagRun) : []) {
    const run = m[0];
    const codes = [...run].map((c) => (c.codePointAt(0) ?? 0) - 0xe0000);
    const before = text.slice(Math.max(0, m.index - 2), m.index);
    const isFlag =
      before.endsWith('\u{1F3F4}') &&
      codes.length <= 8 &&
      codes[codes.length - 1] === 0x7f &&
      codes.length >= 3;
    if (isFlag) continue;
    const decoded = codes
      .filter((c) => c >= 0x20 && c < 0x7f)
      .map((c) => String.fromCharCode(c))
      .join('');
    out.push({ kind: 'tag', offset: m.index, decoded, chars: run });
  }
  for (const m of text.matchAll(/[\u202a-\u202e\u2066-\u2069]/g)) {
    out.push({ kind: 'bidi', offset: m.index, chars: m[0] });
  }
  for (const m of text.matchAll(/[\u200b-\u200d\u2060\u2062-\u2064\ufeff]/g)) {
    const ch = m[0];
    if (ch === '\ufeff' && m.index === 0) continue;
    if (ch === '\u200d' || ch === '\u200c') {
      const before = text.slice(Math.max(0, m.index - 2), m.index);
      const after = text.slice(m.index + 1, m.index + 3);
      if (EMOJI_BEFORE.test(before) || EMOJI_AFTER.test(after)) continue;
      // ZWNJ/ZWJ are ordinary in Persian, Arabic and Indic scripts.
      if (/[\u0600-\u06ff\u0900-\u0dff]/.test(before + after)) continue;
    }
    out.push({ kind: 'zero_width', offset: m.index, chars: ch });
  }
  return out.sort((a, b) => a.offset - b.offset);
}

const CONFUSABLE_SCRIPT = /[\u0370-\u03ff\u0400-\u04ff\u0500-\u052f]/;
const LATIN = /[A-Za-z]/;

/** An identifier that mixes ASCII Latin letters with Cyrillic or Greek letters (a homoglyph trick). */
export function isMixedScriptIdentifier(name: string): boolean {
  return LATIN.test(name) && CONFUSABLE_SCRIPT.test(name);
}

export function hasZeroWidth(name: string): boolean {
  return /[\u200b-\u200d\u2060\ufeff]/.test(name);
}

/** A text matched literally inside a regular expression. */
export function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
