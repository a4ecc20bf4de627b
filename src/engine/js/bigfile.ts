/**
 * Files too big for one syntax tree (over `maxAstFileBytes`) are cut into pieces that parse on
 * their own, and the pieces that matter are analysed with the normal engine: the head and the
 * tail of the file (where injected code goes: first or last line of a bundle) and the statements
 * around sensitive names (child_process, eval, Function, vm, network modules, process.env …).
 *
 * The cut points come from a single-pass tokenizer that follows strings, template literals,
 * comments, regular-expression literals and bracket depth: a piece starts and ends at a
 * top-level statement boundary (a newline or `;` at depth 0), so it parses as a program.
 */

export interface Chunk {
  /** Offset of the piece in the file. */
  start: number;
  text: string;
  /** Lines before the piece (add to a finding's line). */
  lineOffset: number;
}

export interface ChunkPlan {
  chunks: Chunk[];
  /** Bytes of the file the pieces cover. */
  coveredBytes: number;
}

const SENSITIVE =
  /\b(?:child_process|execSync|spawnSync|execFile|eval|Function|vm|_compile|dlopen|process\.env|https?\.request|https?\.get|net\.connect|dgram|dns\.|XMLHttpRequest|fetch|WebSocket|fromCharCode|atob|Buffer\.from|writeFileSync|\.ssh|\.npmrc|webhooks?)\b/g;

/** Top-level statement boundaries (offsets just after a newline or `;` at bracket depth 0). */
export function topLevelBoundaries(text: string, maxBoundaries = 200_000): number[] {
  const out: number[] = [0];
  let depth = 0;
  let prevSignificant = '';
  const templateDepths: number[] = [];
  const n = text.length;
  for (let i = 0; i < n; i++) {
    const c = text[i]!;
    if (c === '"' || c === "'") {
      for (i++; i < n && text[i] !== c && text[i] !== '\n'; i++) if (text[i] === '\\') i++;
      prevSignificant = 'a';
      continue;
    }
    if (c === '`') {
      // Template literal: skip to its end, entering `${…}` as nested code.
      for (i++; i < n; i++) {
        const t = text[i]!;
        if (t === '\\') i++;
        else if (t === '`') break;
        else if (t === '$' && text[i + 1] === '{') {
          templateDepths.push(depth);
          depth++;
          i++;
          break;
        }
      }
      prevSignificant = 'a';
      continue;
    }
    if (c === '/' && text[i + 1] === '/') {
      const e = text.indexOf('\n', i);
      i = e < 0 ? n : e - 1;
      continue;
    }
    if (c === '/' && text[i + 1] === '*') {
      const e = text.indexOf('*/', i + 2);
      i = e < 0 ? n : e + 1;
      continue;
    }
    if (c === '/' && (prevSignificant === '' || '(,=:[!&|?{};+-*%<>~^'.includes(prevSignificant))) {
      // Regular-expression literal, with classes.
      let cls = false;
      for (i++; i < n && text[i] !== '\n'; i++) {
        const t = text[i]!;
        if (t === '\\') i++;
        else if (t === '[') cls = true;
        else if (t === ']') cls = false;
        else if (t === '/' && !cls) break;
      }
      prevSignificant = 'a';
      continue;
    }
    if (c === '(' || c === '[' || c === '{') depth++;
    else if (c === ')' || c === ']') depth = Math.max(0, depth - 1);
    else if (c === '}') {
      depth = Math.max(0, depth - 1);
      if (templateDepths.length && templateDepths[templateDepths.length - 1] === depth) {
        templateDepths.pop();
        // Back inside the template literal: skip to its end or the next `${`.
        for (i++; i < n; i++) {
          const t = text[i]!;
          if (t === '\\') i++;
          else if (t === '`') break;
          else if (t === '$' && text[i + 1] === '{') {
            templateDepths.push(depth);
            depth++;
            i++;
            break;
          }
        }
        prevSignificant = 'a';
        continue;
      }
    }
    if (depth === 0 && (c === '\n' || c === ';') && out.length < maxBoundaries) out.push(i + 1);
    if (c !== ' ' && c !== '\t' && c !== '\n' && c !== '\r') prevSignificant = c;
  }
  out.push(n);
  return out;
}

/** Largest boundary <= pos, and smallest boundary >= pos. */
function snap(bounds: number[], pos: number, down: boolean): number {
  let lo = 0;
  let hi = bounds.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + (down ? 1 : 0)) >> 1;
    if (down ? bounds[mid]! <= pos : bounds[mid]! < pos) lo = down ? mid : mid + 1;
    else hi = down ? mid - 1 : mid;
  }
  return bounds[lo]!;
}

/**
 * Picks the pieces to analyse: head and tail (`edgeBytes` each), then windows around sensitive
 * names (`windowBytes` each, at most `maxWindows`), merged and snapped to statement boundaries.
 * A piece that would exceed `maxChunkBytes` (one huge statement) is dropped.
 */
export function planChunks(
  text: string,
  { edgeBytes = 256 * 1024, windowBytes = 16 * 1024, maxWindows = 40, maxChunkBytes = 2 * 1024 * 1024 } = {},
): ChunkPlan {
  const bounds = topLevelBoundaries(text);
  const spans: [number, number][] = [
    [0, edgeBytes],
    [Math.max(0, text.length - edgeBytes), text.length],
  ];
  let windowEnd = 0;
  let windows = 0;
  for (const m of text.matchAll(SENSITIVE)) {
    const at = m.index;
    if (at < edgeBytes || at > text.length - edgeBytes || at < windowEnd) continue;
    spans.push([at - windowBytes / 2, at + windowBytes / 2]);
    windowEnd = at + windowBytes / 2;
    if (++windows >= maxWindows) break;
  }
  const snapped = spans
    .map(
      ([a, b]) =>
        [snap(bounds, Math.max(0, a), true), snap(bounds, Math.min(text.length, b), false)] as const,
    )
    .sort((x, y) => x[0] - y[0]);
  const merged: [number, number][] = [];
  for (const [a, b] of snapped) {
    const last = merged[merged.length - 1];
    if (last && a <= last[1]) last[1] = Math.max(last[1], b);
    else merged.push([a, b]);
  }
  const chunks: Chunk[] = [];
  let covered = 0;
  let lines = 0;
  let lineAt = 0;
  for (const [a, b] of merged) {
    if (b - a > maxChunkBytes || b <= a) continue;
    for (let i = text.indexOf('\n', lineAt); i >= 0 && i < a; i = text.indexOf('\n', i + 1)) lines++;
    lineAt = a;
    chunks.push({ start: a, text: text.slice(a, b), lineOffset: lines });
    covered += b - a;
  }
  return { chunks, coveredBytes: covered };
}
