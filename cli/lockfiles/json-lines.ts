/**
 * Line numbers of object keys in a JSON text. `JSON.parse` drops positions, so this small
 * scanner walks the text once, tracks the key path, and records the 1-based line of every key
 * whose path the caller wants (for example `["packages", "node_modules/debug"]`).
 */

export const PATH_SEP = '\u0000';

export function jsonKeyLines(text: string, want: (path: readonly string[]) => boolean): Map<string, number> {
  const lines = new Map<string, number>();
  const kinds: ('o' | 'a')[] = [];
  const path: string[] = [];
  const indices: number[] = [];
  let line = 1;
  let expectKey = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 10 /* \n */) {
      line++;
    } else if (c === 34 /* " */) {
      let j = i + 1;
      while (j < text.length && text.charCodeAt(j) !== 34) j += text.charCodeAt(j) === 92 /* \ */ ? 2 : 1;
      if (expectKey && kinds[kinds.length - 1] === 'o') {
        path[path.length - 1] = JSON.parse(text.slice(i, j + 1)) as string;
        if (want(path)) lines.set(path.join(PATH_SEP), line);
        expectKey = false;
      }
      i = j;
    } else if (c === 123 /* { */) {
      kinds.push('o');
      path.push('');
      indices.push(0);
      expectKey = true;
    } else if (c === 91 /* [ */) {
      kinds.push('a');
      path.push('0');
      indices.push(0);
    } else if (c === 125 /* } */ || c === 93 /* ] */) {
      kinds.pop();
      path.pop();
      indices.pop();
    } else if (c === 44 /* , */) {
      const top = kinds.length - 1;
      if (kinds[top] === 'o') {
        expectKey = true;
      } else if (top >= 0) {
        const next = (indices[top] ?? 0) + 1;
        indices[top] = next;
        path[top] = String(next);
      }
    }
  }
  return lines;
}
