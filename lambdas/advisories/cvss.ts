/**
 * CVSS Base scores from vector strings, written from the FIRST specifications:
 * v3.0/v3.1 (the v3.1 formula and Roundup; v3.0 differs only in rounding, by at most 0.1) and
 * v4.0 (MacroVector lookup plus the specification's interpolation). Returns undefined for a
 * vector it cannot read, never throws.
 */
import { CVSS4_MACROVECTOR_SCORES, CVSS4_MAX_SEVERITY, CVSS4_MAX_VECTORS } from './cvss4-macrovectors';

type Metrics = Map<string, string>;

function parseMetrics(vector: string, prefix: RegExp): Metrics | undefined {
  const trimmed = vector.trim();
  if (!prefix.test(trimmed)) return undefined;
  const metrics: Metrics = new Map();
  for (const part of trimmed.split('/').slice(1)) {
    const [key, value, extra] = part.split(':');
    if (!key || !value || extra !== undefined || metrics.has(key)) return undefined;
    metrics.set(key, value);
  }
  return metrics;
}

// ---- v3 ----------------------------------------------------------------------------------

const V3_WEIGHTS: Record<string, Record<string, number>> = {
  AV: { N: 0.85, A: 0.62, L: 0.55, P: 0.2 },
  AC: { L: 0.77, H: 0.44 },
  UI: { N: 0.85, R: 0.62 },
  C: { H: 0.56, L: 0.22, N: 0 },
  I: { H: 0.56, L: 0.22, N: 0 },
  A: { H: 0.56, L: 0.22, N: 0 },
};
const V3_PRIVILEGES: Record<string, Record<string, number>> = {
  U: { N: 0.85, L: 0.62, H: 0.27 },
  C: { N: 0.85, L: 0.68, H: 0.5 },
};

/** CVSS v3.1 Roundup: the smallest one-decimal number >= x, robust to floating-point noise. */
function roundUp(x: number): number {
  const scaled = Math.round(x * 100000);
  return scaled % 10000 === 0 ? scaled / 100000 : (Math.floor(scaled / 10000) + 1) / 10;
}

export function cvss3BaseScore(vector: string): number | undefined {
  const metrics = parseMetrics(vector, /^CVSS:3\.[01]\//);
  if (!metrics) return undefined;
  const weight = (name: string): number | undefined => V3_WEIGHTS[name]?.[metrics.get(name) ?? ''];
  const scope = metrics.get('S');
  if (scope !== 'U' && scope !== 'C') return undefined;
  const [av, ac, ui, c, i, a] = ['AV', 'AC', 'UI', 'C', 'I', 'A'].map(weight);
  const pr = V3_PRIVILEGES[scope]?.[metrics.get('PR') ?? ''];
  if ([av, ac, ui, c, i, a, pr].some((w) => w === undefined)) return undefined;
  const iss = 1 - (1 - (c as number)) * (1 - (i as number)) * (1 - (a as number));
  const impact = scope === 'U' ? 6.42 * iss : 7.52 * (iss - 0.029) - 3.25 * Math.pow(iss - 0.02, 15);
  if (impact <= 0) return 0;
  const exploitability = 8.22 * (av as number) * (ac as number) * (pr as number) * (ui as number);
  const raw = scope === 'U' ? impact + exploitability : 1.08 * (impact + exploitability);
  return roundUp(Math.min(raw, 10));
}

// ---- v4 ----------------------------------------------------------------------------------

const V4_BASE = ['AV', 'AC', 'AT', 'PR', 'UI', 'VC', 'VI', 'VA', 'SC', 'SI', 'SA'] as const;
const V4_ALLOWED: Record<string, readonly string[]> = {
  AV: ['N', 'A', 'L', 'P'],
  AC: ['L', 'H'],
  AT: ['N', 'P'],
  PR: ['N', 'L', 'H'],
  UI: ['N', 'P', 'A'],
  VC: ['H', 'L', 'N'],
  VI: ['H', 'L', 'N'],
  VA: ['H', 'L', 'N'],
  SC: ['H', 'L', 'N'],
  SI: ['H', 'L', 'N'],
  SA: ['H', 'L', 'N'],
};

/** Severity distance levels (0.1 per step below the highest value) used by the interpolation. */
const V4_LEVELS: Record<string, Record<string, number>> = {
  AV: { N: 0, A: 0.1, L: 0.2, P: 0.3 },
  PR: { N: 0, L: 0.1, H: 0.2 },
  UI: { N: 0, P: 0.1, A: 0.2 },
  AC: { L: 0, H: 0.1 },
  AT: { N: 0, P: 0.1 },
  VC: { H: 0, L: 0.1, N: 0.2 },
  VI: { H: 0, L: 0.1, N: 0.2 },
  VA: { H: 0, L: 0.1, N: 0.2 },
  SC: { H: 0.1, L: 0.2, N: 0.3 },
  SI: { S: 0, H: 0.1, L: 0.2, N: 0.3 },
  SA: { S: 0, H: 0.1, L: 0.2, N: 0.3 },
  CR: { H: 0, M: 0.1, L: 0.2 },
  IR: { H: 0, M: 0.1, L: 0.2 },
  AR: { H: 0, M: 0.1, L: 0.2 },
};

/** Effective value of a metric: a Modified (environmental) value wins; unset E and CR/IR/AR take their worst case. */
function v4Value(metrics: Metrics, name: string): string {
  const modified = metrics.get(`M${name}`);
  if (modified !== undefined && modified !== 'X') return modified;
  const value = metrics.get(name) ?? 'X';
  if (value === 'X' && name === 'E') return 'A';
  if (value === 'X' && (name === 'CR' || name === 'IR' || name === 'AR')) return 'H';
  return value;
}

function v4MacroVector(m: (name: string) => string): [number, number, number, number, number, number] {
  const [av, pr, ui] = [m('AV'), m('PR'), m('UI')];
  const eq1 =
    av === 'N' && pr === 'N' && ui === 'N'
      ? 0
      : (av === 'N' || pr === 'N' || ui === 'N') && av !== 'P'
        ? 1
        : 2;
  const eq2 = m('AC') === 'L' && m('AT') === 'N' ? 0 : 1;
  const [vc, vi, va] = [m('VC'), m('VI'), m('VA')];
  const eq3 = vc === 'H' && vi === 'H' ? 0 : vc === 'H' || vi === 'H' || va === 'H' ? 1 : 2;
  const eq4 =
    m('MSI') === 'S' || m('MSA') === 'S' ? 0 : m('SC') === 'H' || m('SI') === 'H' || m('SA') === 'H' ? 1 : 2;
  const exploit = m('E');
  const eq5 = exploit === 'A' ? 0 : exploit === 'P' ? 1 : 2;
  const eq6 =
    (m('CR') === 'H' && vc === 'H') || (m('IR') === 'H' && vi === 'H') || (m('AR') === 'H' && va === 'H')
      ? 0
      : 1;
  return [eq1, eq2, eq3, eq4, eq5, eq6];
}

function lookup(levels: readonly number[]): number {
  return CVSS4_MACROVECTOR_SCORES[levels.join('')] ?? Number.NaN;
}

function vectorValue(vector: string, name: string): string | undefined {
  for (const part of vector.split('/')) {
    const [key, value] = part.split(':');
    if (key === name) return value;
  }
  return undefined;
}

export function cvss4BaseScore(vector: string): number | undefined {
  const metrics = parseMetrics(vector, /^CVSS:4\.0\//);
  if (!metrics) return undefined;
  for (const name of V4_BASE) {
    const value = metrics.get(name);
    if (value === undefined || !V4_ALLOWED[name]?.includes(value)) return undefined;
  }
  const m = (name: string): string => v4Value(metrics, name);
  if (['VC', 'VI', 'VA', 'SC', 'SI', 'SA'].every((name) => m(name) === 'N')) return 0;

  const eq = v4MacroVector(m);
  const [eq1, eq2, eq3, eq4, eq5, eq6] = eq;
  const value = lookup(eq);
  if (Number.isNaN(value)) return undefined;

  // Scores of the next lower MacroVector along each EQ (NaN where there is none).
  const lower = (index: number): number => lookup(eq.map((level, i) => (i === index ? level + 1 : level)));
  const lowerEq36 =
    eq3 === 0 && eq6 === 0 ? Math.max(lower(5), lower(2)) : eq3 === 1 && eq6 === 0 ? lower(5) : lower(2);
  const available = [lower(0), lower(1), lowerEq36, lower(3), lower(4)].map((next) => value - next);

  // Distance of this vector below the first highest-severity vector of its MacroVector that it does not exceed.
  const eq36Vectors =
    (CVSS4_MAX_VECTORS.eq3eq6 as Record<number, Record<number, readonly string[]>>)[eq3]?.[eq6] ?? [];
  const candidates: string[] = [];
  for (const a of CVSS4_MAX_VECTORS.eq1[eq1 as 0 | 1 | 2])
    for (const b of CVSS4_MAX_VECTORS.eq2[eq2 as 0 | 1])
      for (const c of eq36Vectors)
        for (const d of CVSS4_MAX_VECTORS.eq4[eq4 as 0 | 1 | 2])
          for (const e of CVSS4_MAX_VECTORS.eq5[eq5 as 0 | 1 | 2]) candidates.push([a, b, c, d, e].join('/'));
  let distance: Record<string, number> = {};
  for (const candidate of candidates) {
    distance = {};
    let below = true;
    for (const name of Object.keys(V4_LEVELS)) {
      const levels = V4_LEVELS[name] as Record<string, number>;
      const d = (levels[m(name)] ?? 0) - (levels[vectorValue(candidate, name) ?? ''] ?? 0);
      distance[name] = d;
      if (d < 0) below = false;
    }
    if (below) break;
  }
  const sum = (...names: string[]): number => names.reduce((total, name) => total + (distance[name] ?? 0), 0);
  const current = [
    sum('AV', 'PR', 'UI'),
    sum('AC', 'AT'),
    sum('VC', 'VI', 'VA', 'CR', 'IR', 'AR'),
    sum('SC', 'SI', 'SA'),
  ];
  const depth = [
    CVSS4_MAX_SEVERITY.eq1[eq1 as 0 | 1 | 2],
    CVSS4_MAX_SEVERITY.eq2[eq2 as 0 | 1],
    (CVSS4_MAX_SEVERITY.eq3eq6 as Record<number, Record<number, number>>)[eq3]?.[eq6] ?? 1,
    CVSS4_MAX_SEVERITY.eq4[eq4 as 0 | 1 | 2],
  ].map((steps) => steps * 0.1);

  let counted = 0;
  let total = 0;
  available.forEach((room, i) => {
    if (!(room >= 0)) return; // no lower MacroVector along this EQ
    counted++;
    // EQ5 has a single value per level: its proportional distance is always 0.
    if (i < 4) total += room * ((current[i] as number) / (depth[i] as number));
  });
  const score = value - (counted === 0 ? 0 : total / counted);
  return Math.round((Math.min(10, Math.max(0, score)) + 1e-6) * 10) / 10;
}

/** Base score of a v3.x or v4.0 vector (by its prefix). */
export function cvssBaseScore(vector: string): number | undefined {
  if (vector.startsWith('CVSS:4.0/')) return cvss4BaseScore(vector);
  if (vector.startsWith('CVSS:3.')) return cvss3BaseScore(vector);
  return undefined;
}
