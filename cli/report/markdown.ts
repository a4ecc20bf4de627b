/** A Markdown summary for a pull-request comment or a CI step summary ($GITHUB_STEP_SUMMARY). */
import type { Verdict } from '../policy';
import { visible } from './escape';
import { counts, dependencyKind, describePolicy, notable, skippedOf, type CheckResult } from './summary';

const MAX_ROWS = 50;

/** Shortened to `max` characters, on one line, hidden characters escaped. */
function flat(text: string, max: number): string {
  const one = visible(text.replace(/\s+/g, ' '));
  return one.length > max ? `${one.slice(0, max - 1)}…` : one;
}

/**
 * Attacker text as plain Markdown inside a line: every character Markdown or HTML could turn into
 * a link, an image, emphasis, a code span or a tag is escaped, so it renders as the text it is.
 */
function cell(text: string, max = 200): string {
  return flat(text, max).replace(/[\\`*_[\]()!|<>~]/g, (c) =>
    c === '<' ? '&lt;' : c === '>' ? '&gt;' : `\\${c}`,
  );
}

/** Attacker text inside a code span (rendered literally): only backticks and table pipes matter. */
function code(text: string, max = 200): string {
  return `\`${flat(text, max).replace(/`/g, "'").replace(/\|/g, '\\|')}\``;
}

function icon(v: Verdict): string {
  if (v.status === 'fail') return '❌';
  if (v.status === 'allowed') return '☑️';
  if (v.status === 'ignored') return '➖';
  return v.findings.length > 0 ? '⚠️' : '✅';
}

function table(rows: Verdict[]): string[] {
  const lines = [
    '| | Package | Version | Dependency | Risk | Trust | Findings |',
    '|---|---|---|---|---|---|---|',
  ];
  for (const v of rows.slice(0, MAX_ROWS)) {
    const r = v.lookup.status === 'found' ? v.lookup.result : undefined;
    const findings =
      v.status === 'allowed' && v.allowedBy
        ? `allowed: ${v.allowedBy.reason}`
        : v.findings.map((f) => f.message).join('; ');
    lines.push(
      `| ${icon(v)} | ${code(v.pkg.name)} | ${cell(v.pkg.version)} | ${dependencyKind(v)} | ${r?.risk_level ?? 'not scanned'} | ${r ? Math.round(r.trust_score) : '-'} | ${cell(findings, 400)} |`,
    );
  }
  if (rows.length > MAX_ROWS)
    lines.push('', `…and ${rows.length - MAX_ROWS} more (see the JSON or SARIF report).`);
  return lines;
}

export function renderMarkdown(result: CheckResult): string {
  const c = counts(result);
  const ev = result.evaluation;
  const failures = [
    ...(c.failed > 0
      ? [`${c.failed} package${c.failed === 1 ? '' : 's'} violate${c.failed === 1 ? 's' : ''} the policy`]
      : []),
    ...(c.notFound > 0 ? [`${c.notFound} spec${c.notFound === 1 ? '' : 's'} not in the registry`] : []),
  ];
  const title = ev.passed
    ? '## ✅ pkgscan: dependency check passed'
    : `## ❌ pkgscan: ${failures.join('; ')}`;
  const sources = result.inputs
    .map((i) => (i.format === 'spec' ? 'command-line specs' : code(i.source)))
    .join(', ');
  const out = [
    title,
    '',
    `${c.packages} packages from ${sources}: **${c.critical}** critical · **${c.warning}** warning · **${c.clean}** clean` +
      (c.unknown > 0 ? ` · **${c.unknown}** not scanned` : '') +
      ` (${c.direct} direct, ${c.dev} dev-only).`,
    '',
    `Policy: ${describePolicy(result.policy)}.`,
  ];
  const rows = notable(result, false);
  const failing = rows.filter((v) => v.status === 'fail' || v.status === 'allowed');
  const others = rows.filter((v) => v.status !== 'fail' && v.status !== 'allowed');
  if (failing.length > 0) out.push('', '### Policy violations', '', ...table(failing));
  if (others.length > 0) {
    out.push(
      '',
      `<details><summary>Other findings (${others.length} package${others.length === 1 ? '' : 's'})</summary>`,
      '',
      ...table(others),
      '',
      '</details>',
    );
  }
  if (ev.notFound.length > 0) {
    out.push('', '### Not in the registry', '');
    for (const n of ev.notFound) {
      const meant =
        n.suggestions.length > 0 ? `; did you mean ${n.suggestions.map((x) => code(x)).join(', ')}?` : '';
      out.push(`- ${code(n.spec)}: ${cell(n.message)}${meant}`);
    }
  }
  if (ev.expired.length > 0) {
    out.push('', '### Expired allowlist entries', '');
    for (const e of ev.expired) {
      const matched =
        e.matched.length > 0 ? `; no longer allows ${e.matched.map((m) => code(m)).join(', ')}` : '';
      out.push(
        `- ${code(e.entry.package)} ${code(e.entry.range)} expired ${cell(e.entry.expires ?? '')} (${cell(e.entry.reason)})${matched}`,
      );
    }
  }
  const unscanned = ev.verdicts.filter((v) => v.lookup.status === 'unknown' && !rows.includes(v));
  if (unscanned.length > 0) {
    const names = unscanned.slice(0, MAX_ROWS).map((v) => code(`${v.pkg.name}@${v.pkg.version}`));
    const more = unscanned.length > MAX_ROWS ? ` and ${unscanned.length - MAX_ROWS} more` : '';
    out.push('', `<details><summary>Not scanned by the service yet: ${unscanned.length}</summary>`, '');
    out.push(
      `${names.join(', ')}${more}. Run pkgscan with \`--scan-missing\` to request scans.`,
      '',
      '</details>',
    );
  }
  const skipped = skippedOf(result);
  if (skipped.length > 0) {
    out.push(
      '',
      `<details><summary>Not checked: ${skipped.length} dependencies not from the registry</summary>`,
      '',
    );
    for (const s of skipped.slice(0, MAX_ROWS))
      out.push(`- ${code(s.name)} ${cell(s.spec)}: ${cell(s.reason)}`);
    out.push('', '</details>');
  }
  out.push(
    '',
    `<sub>pkgscan ${result.toolVersion} · ${result.apiUrl} · ${result.stats.requests} request${result.stats.requests === 1 ? '' : 's'} in ${(result.stats.durationMs / 1000).toFixed(1)} s</sub>`,
    '',
  );
  return out.join('\n');
}
