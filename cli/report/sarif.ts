/**
 * SARIF 2.1.0 for code-scanning upload.
 *
 * - Rules: the fixed kinds (risk-critical, risk-warning, low-trust, cooldown, not-scanned,
 *   not-found), one rule per advisory (its OSV id, summary, the fixed version in `help`, its own
 *   `security-severity`) and one per agentic threat type (`threat/<type>`). Code scanning shows a
 *   rule's severity and help on every alert, so a CVE is shown with its own severity and fix.
 * - Every result has a physical location: the lockfile lines where the package appears, or the
 *   project's package.json for packages named on the command line (the line naming the package
 *   when it has one, else line 1).
 * - `partialFingerprints` hash the finding's identity only (rule, package, version, advisory id or
 *   threat type and file), never message text, so a reworded reason or a newly known fix keeps
 *   the alert (and its dismissal) as it is.
 * - Allowed findings carry an accepted external suppression with the allowlist reason; dev-only
 *   findings ignored by policy are notes. Attacker-controlled text is shown escaped.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Log, ReportingDescriptor, Result } from 'sarif';
import type { Finding, FindingSubject, Verdict } from '../policy';
import type { NotFoundSpec, SourceLocation } from '../types';
import { visible } from './escape';
import { dependencyKind, type CheckResult } from './summary';

type Level = 'error' | 'warning' | 'note';

interface FixedRule {
  readonly id: string;
  readonly name: string;
  readonly short: string;
  readonly full: string;
  readonly level: Level;
  readonly securitySeverity: string;
}

export const FIXED_RULES: readonly FixedRule[] = [
  {
    id: 'risk-critical',
    name: 'CriticalRiskPackage',
    short: 'Package rated critical by the scanning service',
    full: 'The service rated this package version critical: malicious code, threats aimed at AI agents, or severe vulnerabilities. The result message lists its reasons.',
    level: 'error',
    securitySeverity: '9.0',
  },
  {
    id: 'risk-warning',
    name: 'WarningRiskPackage',
    short: 'Package rated warning by the scanning service',
    full: 'The service rated this package version warning: install scripts, vulnerabilities or risky capabilities worth a look. The result message lists its reasons.',
    level: 'warning',
    securitySeverity: '5.0',
  },
  {
    id: 'low-trust',
    name: 'LowTrustScore',
    short: 'Package trust score below the policy minimum',
    full: 'The trust score (maintainers, downloads, age, provenance) of this package version is below the minimum the policy sets.',
    level: 'warning',
    securitySeverity: '4.0',
  },
  {
    id: 'cooldown',
    name: 'RecentlyPublished',
    short: 'Package version published within the cooldown',
    full: 'This version was published more recently than the policy cooldown. Hijacked releases are usually found and pulled within a day or two: wait, or pin the previous version.',
    level: 'warning',
    securitySeverity: '4.0',
  },
  {
    id: 'not-scanned',
    name: 'NotScanned',
    short: 'Package not scanned by the service',
    full: 'The service has no scan of this package version, so nothing is known about it. Run pkgscan with --scan-missing to request scans.',
    level: 'note',
    securitySeverity: '3.0',
  },
  {
    id: 'not-found',
    name: 'PackageNotFound',
    short: 'Package or version does not exist in the registry',
    full: 'The registry has no such package, or no version matching the range. A name that does not exist is often a typo or a name an AI assistant invented; someone may register it later with malicious code.',
    level: 'error',
    securitySeverity: '7.0',
  },
];

/** GitHub reads security-severity as a CVSS-like score: ≥ 9 critical, ≥ 7 high, ≥ 4 medium. */
const SEVERITY_SCORE: Record<string, string> = { critical: '9.5', high: '8.0', medium: '5.5', low: '2.5' };

const THREAT_TEXT: Record<string, { name: string; full: string; score: string }> = {
  prompt_injection: {
    name: 'PromptInjection',
    full: 'Text in the package is written to steer an AI agent that reads it (README, agent rule files, tool descriptions, strings).',
    score: '8.0',
  },
  instruction_override: {
    name: 'InstructionOverride',
    full: 'Text in the package tells an AI agent to ignore its instructions or the user, to hide what it does, or tells reviewers and scanners the package is safe.',
    score: '8.0',
  },
  data_exfiltration: {
    name: 'DataExfiltration',
    full: 'Code or instructions in the package send secrets, credentials or host details to a place the user did not choose.',
    score: '9.0',
  },
  install_script_injection: {
    name: 'InstallScriptInjection',
    full: 'An install script runs code that downloads and executes payloads, drives an AI tool with its safeguards off, or otherwise acts beyond installing the package.',
    score: '9.5',
  },
  social_engineering: {
    name: 'SocialEngineering',
    full: 'Text in the package asks the user or an agent to run commands or paste content that would compromise the machine.',
    score: '7.0',
  },
  malicious_code: {
    name: 'MaliciousCode',
    full: 'Code in the package behaves as malware: obfuscated loaders, reverse shells, destructive or persistent payloads, miners.',
    score: '9.5',
  },
};

function fixedRule(r: FixedRule): ReportingDescriptor {
  return {
    id: r.id,
    name: r.name,
    shortDescription: { text: r.short },
    fullDescription: { text: r.full },
    help: { text: r.full, markdown: r.full },
    defaultConfiguration: { level: r.level },
    properties: { tags: ['security', 'supply-chain'], 'security-severity': r.securitySeverity },
  };
}

interface AdvisorySeen {
  readonly advisory: Extract<FindingSubject, { kind: 'advisory' }>;
  /** Every package version of this run it affects, with its own fixed version. */
  readonly rows: { name: string; version: string; fixedIn: string }[];
}

function advisoryRule(seen: AdvisorySeen): ReportingDescriptor {
  const a = seen.advisory;
  const summary = visible(a.summary || a.id);
  const ids = [a.id, ...a.aliases].map(visible).join(', ');
  const md = (t: string) => visible(t).replace(/[\\`*_[\]()!|<>~]/g, '\\$&');
  const fixes = [...new Set(seen.rows.map((r) => r.fixedIn || 'no fix'))];
  const fixText =
    fixes.length === 1
      ? fixes[0] === 'no fix'
        ? 'No fixed version is published.'
        : `Upgrade to ${visible(fixes[0]!)} or later.`
      : `Fixed versions: ${seen.rows.map((r) => `${visible(r.name)}@${visible(r.version)} → ${visible(r.fixedIn || 'no fix')}`).join(', ')}.`;
  const table = [
    '| Package | Version | Fixed in |',
    '|---|---|---|',
    ...seen.rows.map((r) => `| ${md(r.name)} | ${md(r.version)} | ${r.fixedIn ? md(r.fixedIn) : 'no fix'} |`),
  ].join('\n');
  const link =
    a.url && /^https:\/\//.test(a.url) ? `\n\nAdvisory: <${encodeURI(a.url).replace(/[<>]/g, '')}>` : '';
  return {
    id: a.id,
    name: `Advisory${a.id.replace(/[^A-Za-z0-9]/g, '')}`,
    shortDescription: { text: summary.slice(0, 1000) },
    fullDescription: { text: `${summary} (${ids}; severity ${visible(a.severity)}). ${fixText}` },
    help: {
      text: `${summary}\n\nAdvisory: ${ids}. Severity: ${visible(a.severity)}. ${fixText}`,
      markdown: `**${md(a.summary || a.id)}** (${md([a.id, ...a.aliases].join(', '))}; severity ${md(a.severity)})\n\n${table}\n\n${md(fixText)}${link}`,
    },
    ...(a.url && /^https:\/\//.test(a.url) ? { helpUri: a.url } : {}),
    defaultConfiguration: {
      level: a.severity === 'low' ? 'note' : a.severity === 'medium' ? 'warning' : 'error',
    },
    properties: {
      tags: ['security', 'vulnerability', 'supply-chain'],
      'security-severity': SEVERITY_SCORE[a.severity] ?? '5.0',
    },
  };
}

function threatRule(type: string): ReportingDescriptor {
  const t = THREAT_TEXT[type] ?? { name: 'Threat', full: `Agentic threat ${type}.`, score: '8.0' };
  return {
    id: `threat/${type}`,
    name: t.name,
    shortDescription: { text: `Package contains ${type.replace(/_/g, ' ')}` },
    fullDescription: { text: t.full },
    help: { text: t.full, markdown: t.full },
    defaultConfiguration: { level: 'error' },
    properties: { tags: ['security', 'supply-chain', 'ai-agents'], 'security-severity': t.score },
  };
}

function resultLevel(v: Verdict, f: Finding): Level {
  if (v.status === 'ignored') return 'note';
  if (f.violates) return 'error';
  return f.level === 'error' ? 'warning' : f.level;
}

/** Stable identity of a finding: never its message. */
export function fingerprint(parts: readonly string[]): string {
  return createHash('sha256').update(parts.join('\u0000')).digest('hex');
}

function identity(f: Finding, name: string, version: string): string[] {
  const s = f.subject;
  if (s?.kind === 'advisory') return [f.rule, name, version, s.id];
  if (s?.kind === 'threat') return [f.rule, name, version, s.type, s.file];
  return [f.rule, name, version];
}

const DEP_SECTIONS = ['dependencies', 'devDependencies', 'optionalDependencies', 'peerDependencies'];

/** Where the project's package.json names a package (for specs given on the command line). */
class ManifestLocator {
  private lines: string[] | undefined | null = null;
  constructor(private readonly cwd: string) {}
  locate(name: string): SourceLocation {
    if (this.lines === null) {
      const file = path.join(this.cwd, 'package.json');
      this.lines = existsSync(file) ? readFileSync(file, 'utf8').split('\n') : undefined;
    }
    const lines = this.lines ?? [];
    // The key inside a dependency section: from the section's line to its closing brace.
    for (let i = 0; i < lines.length; i++) {
      if (!DEP_SECTIONS.some((s) => lines[i]!.includes(`"${s}"`))) continue;
      for (let j = i + 1; j < lines.length && !/^\s*}/.test(lines[j]!); j++)
        if (lines[j]!.includes(`"${name}"`)) return { file: 'package.json', line: j + 1 };
    }
    return { file: 'package.json', line: 1 };
  }
}

/** The folder SARIF paths are relative to: the checkout (GITHUB_WORKSPACE or the git top level). */
export function sarifRoot(cwd: string, env: Readonly<Record<string, string | undefined>> = {}): string {
  const ws = env.GITHUB_WORKSPACE;
  if (ws && !path.relative(ws, cwd).startsWith('..')) return ws;
  for (let dir = path.resolve(cwd); ; dir = path.dirname(dir)) {
    if (existsSync(path.join(dir, '.git'))) return dir;
    if (path.dirname(dir) === dir) return cwd;
  }
}

function physical(l: SourceLocation, cwd: string, root: string) {
  const abs = path.resolve(cwd, l.file);
  const rel = path.relative(root, abs);
  const inside = rel !== '' && !rel.startsWith('..') && !path.isAbsolute(rel);
  return {
    physicalLocation: {
      artifactLocation: inside
        ? { uri: encodeURI(rel.split(path.sep).join('/')), uriBaseId: '%SRCROOT%' }
        : { uri: pathToFileURL(abs).href },
      region: { startLine: Math.max(1, l.line) },
    },
  };
}

export function buildSarif(result: CheckResult, cwd = process.cwd(), root = sarifRoot(cwd)): Log {
  const rules: ReportingDescriptor[] = FIXED_RULES.map(fixedRule);
  const ruleIndex = new Map(rules.map((r, i) => [r.id, i]));
  const advisories = new Map<string, AdvisorySeen>();
  const threatTypes = new Set<string>();
  for (const v of result.evaluation.verdicts)
    for (const f of v.findings) {
      const s = f.subject;
      if (s?.kind === 'advisory') {
        let seen = advisories.get(f.rule);
        if (!seen) advisories.set(f.rule, (seen = { advisory: s, rows: [] }));
        seen.rows.push({ name: v.pkg.name, version: v.pkg.version, fixedIn: s.fixedIn });
      } else if (s?.kind === 'threat') threatTypes.add(s.type);
    }
  for (const seen of advisories.values()) ruleIndex.set(seen.advisory.id, rules.push(advisoryRule(seen)) - 1);
  for (const type of [...threatTypes].sort())
    ruleIndex.set(`threat/${type}`, rules.push(threatRule(type)) - 1);
  const indexOf = (id: string) => {
    const i = ruleIndex.get(id);
    if (i === undefined) throw new Error(`SARIF: no rule for finding ${id}`);
    return i;
  };
  const manifest = new ManifestLocator(cwd);
  const results: Result[] = [];

  for (const v of result.evaluation.verdicts) {
    const where = v.pkg.locations.length > 0 ? v.pkg.locations : [manifest.locate(v.pkg.name)];
    for (const f of v.findings) {
      results.push({
        ruleId: f.rule,
        ruleIndex: indexOf(f.rule),
        level: resultLevel(v, f),
        message: { text: visible(`${v.pkg.name}@${v.pkg.version} (${dependencyKind(v)}): ${f.message}`) },
        locations: where.map((l) => ({
          ...physical(l, cwd, root),
          logicalLocations: [
            { name: v.pkg.name, fullyQualifiedName: `${v.pkg.name}@${v.pkg.version}`, kind: 'package' },
          ],
        })),
        partialFingerprints: { 'pkgscanFinding/v2': fingerprint(identity(f, v.pkg.name, v.pkg.version)) },
        ...(v.status === 'allowed' && v.allowedBy
          ? {
              suppressions: [
                {
                  kind: 'external' as const,
                  status: 'accepted' as const,
                  justification: visible(
                    `${v.allowedBy.reason}${v.allowedBy.expires ? ` (until ${v.allowedBy.expires})` : ''}`,
                  ),
                },
              ],
            }
          : {}),
        properties: {
          package: v.pkg.name,
          version: v.pkg.version,
          direct: v.pkg.direct ?? null,
          dev: v.pkg.dev ?? null,
          policyStatus: v.status,
          violatesPolicy: f.violates,
        },
      });
    }
  }
  for (const nf of result.evaluation.notFound)
    results.push(notFoundResult(nf, manifest, indexOf('not-found'), cwd, root));

  return {
    version: '2.1.0',
    runs: [
      {
        tool: {
          driver: {
            name: 'pkgscan',
            version: result.toolVersion,
            semanticVersion: result.toolVersion,
            rules,
          },
        },
        invocations: [{ executionSuccessful: true, exitCode: result.exitCode }],
        results,
        properties: { apiUrl: result.apiUrl, inputs: result.inputs.map((i) => i.source) },
      },
    ],
  };
}

function notFoundResult(
  nf: NotFoundSpec,
  manifest: ManifestLocator,
  ruleIndex: number,
  cwd: string,
  root: string,
): Result {
  const hint = nf.suggestions.length > 0 ? ` Did you mean ${nf.suggestions.join(', ')}?` : '';
  return {
    ruleId: 'not-found',
    ruleIndex,
    level: 'error',
    message: { text: visible(`${nf.spec}: ${nf.message}.${hint}`) },
    locations: [
      {
        ...physical(manifest.locate(nf.name), cwd, root),
        logicalLocations: [{ name: nf.name, fullyQualifiedName: nf.spec, kind: 'package' }],
      },
    ],
    partialFingerprints: { 'pkgscanFinding/v2': fingerprint(['not-found', nf.spec]) },
    properties: { package: nf.name, spec: nf.spec, reason: nf.reason, suggestions: nf.suggestions },
  };
}
