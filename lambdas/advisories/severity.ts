/**
 * Severity of an advisory, as one of the four levels of the API. The record's own label wins
 * (the affected entry's `ecosystem_specific`/`database_specific` severity, then the record's
 * `database_specific.severity`, as GitHub's and the Node.js working group's exports write it);
 * then a score computed from a CVSS v4.0 or v3.x vector; then a numeric `cvss_score`. Reports of
 * malicious packages are always critical. Without any of these the level is `medium`.
 */
import type { Severity } from '../../src/contract/schemas';
import { cvssBaseScore } from './cvss';
import { isMalicious, type OsvAffected, type OsvRecord, type OsvSeverity } from './osv';

const LABELS: Record<string, Severity> = {
  LOW: 'low',
  MODERATE: 'medium',
  MEDIUM: 'medium',
  HIGH: 'high',
  IMPORTANT: 'high',
  CRITICAL: 'critical',
};

export const SEVERITY_ORDER: Record<Severity, number> = { low: 0, medium: 1, high: 2, critical: 3 };

export function labelSeverity(label: unknown): Severity | undefined {
  return typeof label === 'string' ? LABELS[label.trim().toUpperCase()] : undefined;
}

/** CVSS qualitative rating scale; a 0.0 ("None") score reports as low. */
export function scoreSeverity(score: number): Severity {
  if (score >= 9) return 'critical';
  if (score >= 7) return 'high';
  if (score >= 4) return 'medium';
  return 'low';
}

function vectorSeverity(severities: readonly OsvSeverity[]): Severity | undefined {
  for (const type of ['CVSS_V4', 'CVSS_V3']) {
    for (const entry of severities) {
      if (entry.type !== type) continue;
      const score = cvssBaseScore(entry.score);
      if (score !== undefined) return scoreSeverity(score);
    }
  }
  return undefined;
}

export function recordSeverity(record: OsvRecord, affected: readonly OsvAffected[] = []): Severity {
  if (isMalicious(record)) return 'critical';
  for (const entry of affected) {
    const label =
      labelSeverity(entry.ecosystem_specific?.['severity']) ??
      labelSeverity(entry.database_specific?.['severity']);
    if (label) return label;
  }
  const label = labelSeverity(record.database_specific?.['severity']);
  if (label) return label;
  for (const entry of affected) {
    const fromVector = vectorSeverity(entry.severity ?? []);
    if (fromVector) return fromVector;
  }
  const fromVector = vectorSeverity(record.severity ?? []);
  if (fromVector) return fromVector;
  const score = record.database_specific?.['cvss_score'];
  if (typeof score === 'number' && score >= 0 && score <= 10) return scoreSeverity(score);
  return 'medium';
}
