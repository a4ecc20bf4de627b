/**
 * Helpers over ESTree nodes (meriyah and @babel/parser with its estree plugin): offsets, lines,
 * columns, property names.
 */
import type { LineIndex } from '../text';
import type { AstNode } from './values';

/** Line index of the file being walked (set by runFile, restored after nested analyses). */
let currentLines: LineIndex | undefined;

/** Makes `lines` the line index of the file being walked; returns the previous one. */
export function useLines(lines: LineIndex | undefined): LineIndex | undefined {
  const previous = currentLines;
  currentLines = lines;
  return previous;
}

export function startOf(n: AstNode | undefined): number | undefined {
  if (!n) return undefined;
  if (typeof n.start === 'number') return n.start;
  return n.range?.[0];
}

export function lineOf(n: AstNode | undefined): number {
  if (n?.loc) return n.loc.start.line;
  const s = startOf(n);
  return s === undefined || !currentLines ? 0 : currentLines.lineOf(s);
}

export function columnOf(n: AstNode): number {
  if (n.loc) return n.loc.start.column;
  const s = startOf(n);
  return s === undefined || !currentLines ? 0 : currentLines.columnOf(s);
}

/** Start and end offsets of a node, when the parser gave them. */
export function rangeOf(n: AstNode): [number, number] | undefined {
  return n.range ?? (typeof n.start === 'number' ? [n.start, n.end as number] : undefined);
}

export function keyName(n: AstNode | undefined): string | undefined {
  if (!n) return undefined;
  if (n.type === 'Identifier') return n.name as string;
  // (`#token` is not `token`: a setter of `token` may keep its value in `#token`.)
  if (n.type === 'PrivateIdentifier') return `#${n.name as string}`;
  if (n.type === 'PrivateName') {
    const id = keyName(n.id as AstNode);
    return id === undefined ? undefined : `#${id}`;
  }
  if ((n.type === 'Literal' || n.type === 'StringLiteral' || n.type === 'NumericLiteral') && n.value !== null)
    return String(n.value);
  return undefined;
}

/** `n => n === 'spawn'` / `([k]) => k === 'spawn'`: the literal the callback compares with. */
export function comparedLiteral(fn: AstNode): string | undefined {
  let body = fn.body as AstNode | undefined;
  if (body?.type === 'BlockStatement') {
    const ret = ((body.body as AstNode[]) ?? []).find((s) => s.type === 'ReturnStatement');
    body = ret?.argument as AstNode | undefined;
  }
  if (!body || body.type !== 'BinaryExpression' || !/^[!=]==?$/.test(body.operator as string))
    return undefined;
  for (const side of [body.left, body.right] as AstNode[]) {
    if ((side.type === 'Literal' || side.type === 'StringLiteral') && typeof side.value === 'string')
      return side.value;
  }
  return undefined;
}

export function isFunctionNode(n: AstNode | undefined): boolean {
  return n?.type === 'FunctionExpression' || n?.type === 'ArrowFunctionExpression';
}

/** The source text of a node, at most `max` characters. */
export function sourceText(text: string, n: AstNode | undefined, max: number): string | undefined {
  if (!n) return undefined;
  const r = rangeOf(n);
  return r ? text.slice(r[0], Math.min(r[1], r[0] + max)) : undefined;
}

/** Whether an expression is the page's location (`location`, `window.location`, `document.location` …). */
export function isPageLocation(text: string, n: AstNode): boolean {
  return /^(?:window\.|document\.|top\.|self\.)?location$/.test(sourceText(text, n, 40) ?? '');
}
