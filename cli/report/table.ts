/** The readable terminal table: fixed columns, no dependencies, colour only when asked. */
import type { Verdict } from '../policy';
import type { NotFoundSpec } from '../types';
import { visible } from './escape';
import { dependencyKind, notable, type CheckResult } from './summary';

export interface Palette {
  red(s: string): string;
  yellow(s: string): string;
  green(s: string): string;
  dim(s: string): string;
  bold(s: string): string;
}

const wrap = (open: number, close: number) => (s: string) => `\x1b[${open}m${s}\x1b[${close}m`;
export const COLOURS: Palette = {
  red: wrap(31, 39),
  yellow: wrap(33, 39),
  green: wrap(32, 39),
  dim: wrap(2, 22),
  bold: wrap(1, 22),
};
const id = (s: string) => s;
export const PLAIN: Palette = { red: id, yellow: id, green: id, dim: id, bold: id };

function statusText(v: Verdict): string {
  if (v.status === 'fail') return 'FAIL';
  if (v.status === 'allowed') return 'allowed';
  if (v.status === 'ignored') return 'ignored';
  return v.findings.length > 0 ? 'note' : 'ok';
}

function noteOf(v: Verdict): string {
  if (v.status === 'allowed' && v.allowedBy) return `allowed: ${v.allowedBy.reason}`;
  const main = v.findings.find((f) => f.violates) ?? v.findings[0];
  const more = v.findings.length > 1 ? ` (+${v.findings.length - 1} more)` : '';
  const expired =
    v.expiredMatches.length > 0 ? ` [allowlist entry expired ${v.expiredMatches[0]!.expires}]` : '';
  return main ? `${main.message}${more}${expired}` : '';
}

export function renderTable(
  result: CheckResult,
  opts: { all: boolean; width: number; palette: Palette },
): string {
  const p = opts.palette;
  const rows = notable(result, opts.all);
  if (rows.length === 0) return '';
  const header = ['STATUS', 'PACKAGE', 'VERSION', 'DEPENDENCY', 'RISK', 'TRUST', 'CVES', 'THREATS', 'NOTE'];
  const cells = rows.map((v) => {
    const r = v.lookup.status === 'found' ? v.lookup.result : undefined;
    return [
      statusText(v),
      v.pkg.name,
      v.pkg.version,
      dependencyKind(v),
      r ? r.risk_level : 'unknown',
      r ? String(Math.round(r.trust_score)) : '-',
      r ? String(r.cves.length) : '-',
      r ? String(r.agentic_threats.length) : '-',
      noteOf(v),
    ].map(visible);
  });
  const widths = header.map((h, i) => Math.max(h.length, ...cells.map((c) => (c[i] ?? '').length)));
  const fixed = widths.slice(0, -1).reduce((a, b) => a + b + 2, 0);
  // The note takes what is left of the terminal; too little left, and it wraps rather than vanish.
  const room = opts.width - fixed;
  if (room >= 30) widths[widths.length - 1] = Math.min(widths[widths.length - 1]!, room);
  const line = (cols: string[]) =>
    cols
      .map((c, i) => {
        const w = widths[i]!;
        const text = c.length > w ? `${c.slice(0, w - 1)}…` : c;
        return i === cols.length - 1 ? text : text.padEnd(w);
      })
      .join('  ');
  const colourRow = (v: Verdict, text: string) => {
    if (v.status === 'fail') return p.red(text);
    if (v.status === 'allowed' || v.status === 'ignored') return p.dim(text);
    const risk = v.lookup.status === 'found' ? v.lookup.result.risk_level : 'unknown';
    return risk === 'critical' ? p.red(text) : risk === 'warning' ? p.yellow(text) : text;
  };
  const out = [p.bold(line(header)), ...cells.map((c, i) => colourRow(rows[i]!, line(c)))];
  return `${out.join('\n')}\n`;
}

/** One line per spec that names nothing installable, with what the user may have meant. */
export function renderNotFound(notFound: readonly NotFoundSpec[], p: Palette): string {
  return notFound
    .map((n) => {
      const meant = n.suggestions.length > 0 ? `; did you mean ${n.suggestions.join(', ')}?` : '';
      return `${p.red(p.bold('NOT FOUND'))}  ${visible(n.spec)}: ${visible(n.message)}${visible(meant)}\n`;
    })
    .join('');
}
