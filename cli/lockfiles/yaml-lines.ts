/** YAML parsing that keeps the line of each mapping key (pnpm-lock.yaml, yarn berry's yarn.lock). */
import { isMap, isScalar, LineCounter, parseDocument, type YAMLMap } from 'yaml';
import { UsageError } from '../errors';

export interface YamlWithLines {
  readonly data: unknown;
  /** Lines of the keys of the top-level map (section undefined) or of the map under a top-level key. */
  keyLines(section?: string): Map<string, number>;
}

export function parseYamlWithLines(text: string, source: string): YamlWithLines {
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, uniqueKeys: false, prettyErrors: false });
  const first = doc.errors[0];
  if (first) throw new UsageError(`${source} is not valid YAML: ${first.message.split('\n')[0]}`);
  const keyLines = (section?: string): Map<string, number> => {
    const out = new Map<string, number>();
    let map: unknown = doc.contents;
    if (section !== undefined) map = isMap(map) ? (map as YAMLMap).get(section, true) : undefined;
    if (!isMap(map)) return out;
    for (const pair of map.items) {
      const key = pair.key;
      if (isScalar(key) && key.range) out.set(String(key.value), lineCounter.linePos(key.range[0]).line);
    }
    return out;
  };
  return { data: doc.toJS({ maxAliasCount: -1 }), keyLines };
}
