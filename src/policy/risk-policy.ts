/**
 * The risk policy: one deterministic table from findings (and, when known, CVEs, advisories and
 * trust) to `risk_level` and `risk_reasons`. Pure: same input, same output, no clock, no I/O.
 *
 * | # | Condition                                                          | Level    |
 * |---|--------------------------------------------------------------------|----------|
 * | 1 | an advisory marks the version malicious (`MAL-` id or `malicious`) | critical |
 * | 2 | a threat with confidence >= 0.8, or >= 0.7 in install-time code     | critical |
 * | 3 | a CVE or advisory of severity `critical`                           | critical |
 * | 4 | a threat with confidence >= 0.5                                    | warning  |
 * | 5 | a CVE or advisory of severity `high` or `medium`                   | warning  |
 * | 6 | install-time code that makes requests or starts processes          | warning  |
 * | 7 | the archive is hostile or the analysis is incomplete (limits hit)  | warning  |
 * | 8 | trust score below 20 (when known)                                  | warning  |
 * |10 | the release adds install scripts to a package whose previous        | warning; |
 * |   | version had none, or its install-time code newly makes requests or  | critical |
 * |   | starts processes (critical when that code makes network requests)   |          |
 * | 9 | low-severity CVEs, other install scripts, native code, per-file    | clean, with an informational reason |
 * |   | limits (big files checked as text only, file time budget)          |          |
 *
 * The level is the highest level any row reaches. Reasons are sorted: critical rows first,
 * then warning rows, then informational ones; each names the file, finding or advisory.
 */
import type { RiskLevel, Severity, ThreatType } from '../contract/schemas';

export const CRITICAL_CONFIDENCE = 0.8;
export const CRITICAL_CONFIDENCE_INSTALL = 0.7;
export const WARNING_CONFIDENCE = 0.5;
export const LOW_TRUST = 20;

export interface RiskThreat {
  threat_type: ThreatType;
  confidence: number;
  file: string;
  line: number;
  message: string;
  install_time: boolean;
}

export interface RiskInput {
  threats: RiskThreat[];
  install_scripts: { name: string; command: string }[];
  /** Capabilities of install-time code only. */
  install_time_capabilities?: {
    makes_requests: boolean;
    spawns_children: boolean;
    domains: string[];
    commands: string[];
  };
  has_native?: boolean;
  /** Problems with the archive or limits hit, as sentences. */
  analysis_problems?: string[];
  /** Per-file analysis limits hit (big files, time budgets), as sentences: informational. */
  analysis_notes?: string[];
  /** Later issues fill these; absent means unknown, which is neutral. */
  cves?: { id: string; severity: Severity; fixed_in?: string; summary?: string }[];
  advisories?: { id: string; severity?: Severity; malicious?: boolean; summary?: string }[];
  trust_score?: number;
  /** What this release adds to install time, against the previous version (scanner/changes.ts). */
  release_changes?: {
    /** The previous version compared with. */
    since: string;
    /** Install scripts added to a package whose previous version had none, as `name ("command")`. */
    install_scripts_added: string[];
    /** Install-time behaviour the previous version did not have ("network requests"), or null. */
    install_time_added: string | null;
    /** This version's install-time code makes network requests. */
    install_time_network: boolean;
  };
}

export interface RiskAssessment {
  risk_level: RiskLevel;
  risk_reasons: string[];
}

const RANK: Record<RiskLevel, number> = { clean: 0, warning: 1, critical: 2 };

const TYPE_LABEL: Record<ThreatType, string> = {
  prompt_injection: 'Prompt injection',
  instruction_override: 'Instruction override',
  social_engineering: 'Social engineering',
  data_exfiltration: 'Data exfiltration',
  install_script_injection: 'Install-script injection',
  malicious_code: 'Malicious code',
};

function upgradeAdvice(fixed?: string): string {
  return fixed
    ? `upgrade to ${fixed} or later`
    : 'no fixed version is known: replace the package or mitigate';
}

export function assessRisk(input: RiskInput): RiskAssessment {
  const rows: { level: RiskLevel; order: number; text: string }[] = [];
  const add = (level: RiskLevel | 'info', order: number, text: string) =>
    rows.push({ level: level === 'info' ? 'clean' : level, order: level === 'info' ? 9 : order, text });

  for (const a of input.advisories ?? []) {
    if (a.malicious || /^MAL-/i.test(a.id)) {
      add(
        'critical',
        1,
        `Advisory ${a.id} reports this version as malicious${a.summary ? ` (${a.summary})` : ''}: remove it, and rotate any credentials on machines where it was installed.`,
      );
    }
  }

  // Threats: strongest first, one reason per (type, file, line), at most 10 reasons.
  const threats = [...input.threats].sort(
    (a, b) =>
      b.confidence - a.confidence ||
      a.file.localeCompare(b.file) ||
      a.line - b.line ||
      a.threat_type.localeCompare(b.threat_type),
  );
  let listed = 0;
  const seen = new Set<string>();
  for (const t of threats) {
    const critical =
      t.confidence >= CRITICAL_CONFIDENCE || (t.install_time && t.confidence >= CRITICAL_CONFIDENCE_INSTALL);
    const warning = t.confidence >= WARNING_CONFIDENCE;
    if (!critical && !warning) continue;
    const key = `${t.threat_type}:${t.file}:${t.line}`;
    if (seen.has(key)) continue;
    seen.add(key);
    if (listed++ >= 10) continue;
    const when = t.install_time ? ' during npm install' : '';
    const aimedAtAgents =
      t.threat_type === 'prompt_injection' ||
      t.threat_type === 'instruction_override' ||
      t.threat_type === 'social_engineering' ||
      /\.(?:md|mdx|mdc|markdown|txt)$|(?:^|\/)\.?(?:cursorrules|windsurfrules|clinerules)$/i.test(t.file);
    const action = aimedAtAgents
      ? critical
        ? "do not let AI agents read or act on this package's files, and report the package."
        : 'check this text before letting an AI agent work with the package.'
      : critical
        ? 'do not install this version; if it was installed, treat the machine as compromised.'
        : 'review this code before using the package.';
    add(
      critical ? 'critical' : 'warning',
      critical ? 2 : 4,
      `${TYPE_LABEL[t.threat_type]} in ${t.file}:${t.line}${when}: ${t.message} (confidence ${t.confidence.toFixed(2)}); ${action}`,
    );
  }
  if (listed > 10) add('warning', 4, `${listed - 10} more threat findings are listed in agentic_threats.`);

  for (const c of input.cves ?? []) {
    const lvl: RiskLevel | 'info' =
      c.severity === 'critical' ? 'critical' : c.severity === 'low' ? 'info' : 'warning';
    add(
      lvl,
      c.severity === 'critical' ? 3 : 5,
      `${c.id} (${c.severity})${c.summary ? `: ${c.summary}` : ''}; ${upgradeAdvice(c.fixed_in)}.`,
    );
  }
  for (const a of input.advisories ?? []) {
    if (a.malicious || /^MAL-/i.test(a.id) || !a.severity) continue;
    const lvl: RiskLevel | 'info' =
      a.severity === 'critical' ? 'critical' : a.severity === 'low' ? 'info' : 'warning';
    add(
      lvl,
      a.severity === 'critical' ? 3 : 5,
      `Advisory ${a.id} (${a.severity})${a.summary ? `: ${a.summary}` : ''}; check it and upgrade.`,
    );
  }

  const it = input.install_time_capabilities;
  const scripts = input.install_scripts.map((s) => `${s.name} ("${s.command.slice(0, 80)}")`).join(', ');
  if (it && (it.makes_requests || it.spawns_children) && input.install_scripts.length) {
    const what = [
      it.makes_requests
        ? `makes network requests${it.domains.length ? ` to ${it.domains.slice(0, 3).join(', ')}` : ''}`
        : '',
      it.spawns_children
        ? `starts processes${it.commands.length ? ` (${it.commands.slice(0, 4).join(', ')})` : ''}`
        : '',
    ]
      .filter(Boolean)
      .join(' and ');
    add(
      'warning',
      6,
      `Install scripts ${scripts} run code that ${what}; install with --ignore-scripts unless you need them.`,
    );
  } else if (input.install_scripts.length) {
    add('info', 9, `Runs install scripts ${scripts}; install with --ignore-scripts if you do not need them.`);
  }
  for (const p of input.analysis_problems ?? []) add('warning', 7, `${p} Treat the package with caution.`);
  for (const n of input.analysis_notes ?? []) add('info', 9, n);
  if (typeof input.trust_score === 'number' && input.trust_score < LOW_TRUST) {
    add(
      'warning',
      8,
      `Trust score is ${Math.round(input.trust_score)}/100 (below ${LOW_TRUST}): check the publisher and the package's history before depending on it.`,
    );
  }
  const rc = input.release_changes;
  if (rc && (rc.install_scripts_added.length > 0 || rc.install_time_added !== null)) {
    const level = rc.install_time_network ? 'critical' : 'warning';
    const what =
      rc.install_scripts_added.length > 0
        ? `adds install scripts ${rc.install_scripts_added.join(', ')} to a package whose previous version ${rc.since} had none`
        : `gives its install-time code behaviour ${rc.since} did not have`;
    const does = rc.install_time_added !== null ? `; that code makes ${rc.install_time_added}` : '';
    add(
      level,
      10,
      `This release ${what}${does}. New install-time behaviour in an established package is how hijacked releases look: compare it with ${rc.since} before installing.`,
    );
  }
  if (input.has_native)
    add(
      'info',
      9,
      'Contains native code (compiled addon or executable), which this analysis cannot inspect.',
    );

  let level: RiskLevel = 'clean';
  for (const r of rows) if (RANK[r.level] > RANK[level]) level = r.level;
  const reasons = rows.sort((a, b) => RANK[b.level] - RANK[a.level] || a.order - b.order).map((r) => r.text);
  return { risk_level: level, risk_reasons: [...new Set(reasons)] };
}
