/**
 * Package names, file paths, reasons and snippets come from whoever published the package. Before
 * any of it reaches a terminal, a Markdown page or a SARIF viewer, control characters (escape
 * sequences that retitle the terminal or clear the screen, carriage returns that overwrite a
 * line), bidirectional overrides and invisible code points are shown as `\u{…}` escapes instead.
 */

// C0 and C1 controls (tab and newline only where a caller allows them), DEL, zero-width and
// bidirectional formatting characters, variation selectors, the BOM and Unicode tag characters.
// Built from strings so the pattern can name control characters; the class lists combining and
// joining code points one by one on purpose, each is escaped on its own.
/* eslint-disable no-misleading-character-class */
const HIDDEN = new RegExp(
  [
    '[\\u0000-\\u0008\\u000b-\\u001f\\u007f-\\u009f\\u00ad\\u061c\\u115f\\u1160\\u17b4\\u17b5\\u180e',
    '\\u200b-\\u200f\\u202a-\\u202e\\u2060-\\u206f\\u3164\\ufe00-\\ufe0f\\ufeff\\uffa0\\ufff0-\\ufffb]',
    '|\\udb40[\\udc00-\\udfff]',
    '|[\\ud800-\\udbff](?![\\udc00-\\udfff])',
    '|(?<![\\ud800-\\udbff])[\\udc00-\\udfff]',
  ].join(''),
  'g',
);
/* eslint-enable no-misleading-character-class */

const escapeOne = (ch: string) => `\\u{${ch.codePointAt(0)!.toString(16)}}`;

/** One line of text: every hidden character and line break escaped. */
export function visible(text: string): string {
  return text.replace(HIDDEN, escapeOne).replace(/[\t\n]/g, (c) => (c === '\t' ? '\\t' : '\\n'));
}

/** Text that may span lines: tabs and newlines kept, everything else hidden escaped. */
export function visibleLines(text: string): string {
  return text.replace(HIDDEN, escapeOne);
}
