/**
 * Trust score (0–100) from registry metadata. Deterministic and documented (docs/trust.md):
 * every component is bounded; an unknown input scores its neutral point (about the middle of its
 * range) and says so, never zero. `reasons` explain only the components that pull the score
 * below their neutral point (and deprecation), so a well-established package has none.
 *
 * Calibrated on real inputs (docs/trust.md, `npm run bench:trust`): popular packages spread over
 * roughly 70–100, young little-used ones over 15–45.
 */

import type {
  DownloadsSource,
  PackageResponse,
  TrustComponent as TrustComponentField,
} from '../../../src/contract/schemas';

export interface TrustInput {
  /** Weekly downloads; undefined when no source had a count. */
  readonly weeklyDownloads: number | undefined;
  /** Why the downloads are unknown, when they are. */
  readonly downloadsUnknownReason?: string;
  /** Where the count came from, for the explanation (for example "download API, 2026-11-22"). */
  readonly downloadsSource?: string;
  /** Number of maintainers listed on the package; undefined when unknown. */
  readonly maintainers: number | undefined;
  /** When the package's first version was published. */
  readonly packageCreated: Date | undefined;
  /** When this version was published. */
  readonly versionPublished: Date | undefined;
  /** The version carries a registry provenance attestation; undefined when unknown (uploads). */
  readonly provenance: boolean | undefined;
  /** The previous version had a provenance attestation and this one has none. */
  readonly provenanceLost?: string;
  /** The version is deprecated (its deprecation message). */
  readonly deprecated: string | undefined;
  /** Point in time the ages are measured from. */
  readonly now: Date;
}

/** One component as the response reports it (`trust_components`, the contract's schema). */
export type TrustComponent = Readonly<TrustComponentField>;
export type TrustComponentName = TrustComponent['name'];

export interface TrustResult {
  readonly score: number;
  readonly components: readonly TrustComponent[];
  /** The components that lower the score (and unknown inputs), as sentences. */
  readonly reasons: readonly string[];
}

const DAY_MS = 86_400_000;
/** Maximum points per component (they add up to 100). */
export const TRUST_MAX = {
  base: 10,
  downloads: 35,
  package_age: 20,
  version_age: 10,
  maintainers: 10,
  provenance: 15,
} as const;
/**
 * log10(weekly downloads + 1) at which the downloads component is full (100 million a week): the
 * most-used packages still differ from merely popular ones.
 */
const DOWNLOADS_FULL_LOG = 8;
/** Fewer weekly downloads than this are explained as lowering the score. */
const FEW_DOWNLOADS = 1_000;
/** Package age at which its component is full: two years of history. */
const PACKAGE_AGE_FULL_DAYS = 730;
/** Version age at which its component is full: hijacked releases are mostly found within days. */
const VERSION_AGE_FULL_DAYS = 14;
const DEPRECATION_POINTS = -25;

export function trustScore(input: TrustInput): TrustResult {
  const reasons: string[] = [];
  const components: TrustComponent[] = [
    { name: 'base', points: TRUST_MAX.base, max: TRUST_MAX.base, why: 'every package' },
  ];
  const add = (name: Exclude<TrustComponentName, 'base'>, points: number, why: string, lowers?: string) => {
    const max = name === 'deprecation' ? 0 : TRUST_MAX[name];
    components.push({ name, points: round1(points), max, why });
    if (lowers !== undefined) reasons.push(lowers);
  };

  // Downloads: log scale, 0 a week scores 0, 100 million a week the full 35; unknown 17.5.
  if (input.weeklyDownloads === undefined) {
    const why = input.downloadsUnknownReason ?? 'no download count was available';
    add(
      'downloads',
      TRUST_MAX.downloads / 2,
      'unknown: neutral',
      `Weekly downloads are unknown (${why}); counted as neutral in the trust score.`,
    );
  } else {
    const weekly = Math.max(0, input.weeklyDownloads);
    const points = TRUST_MAX.downloads * Math.min(1, Math.log10(weekly + 1) / DOWNLOADS_FULL_LOG);
    const source = input.downloadsSource ? ` (${input.downloadsSource})` : '';
    add(
      'downloads',
      points,
      `${weekly.toLocaleString('en-US')} downloads a week${source}`,
      weekly < FEW_DOWNLOADS
        ? `Trust: few downloads (${weekly.toLocaleString('en-US')} a week${source}); little-used packages have had few eyes on them.`
        : undefined,
    );
  }

  const packageAge = ageDays(input.packageCreated, input.now);
  if (packageAge === undefined) {
    add('package_age', TRUST_MAX.package_age / 2, 'unknown: neutral');
  } else {
    const points = TRUST_MAX.package_age * Math.min(1, packageAge / PACKAGE_AGE_FULL_DAYS);
    add(
      'package_age',
      points,
      `first published ${days(packageAge)} ago`,
      points < TRUST_MAX.package_age / 2
        ? `Trust: the package is young (first published ${days(packageAge)} ago).`
        : undefined,
    );
  }

  const versionAge = ageDays(input.versionPublished, input.now);
  if (versionAge === undefined) {
    add('version_age', TRUST_MAX.version_age / 2, 'unknown: neutral');
  } else {
    const points = TRUST_MAX.version_age * Math.min(1, versionAge / VERSION_AGE_FULL_DAYS);
    add(
      'version_age',
      points,
      `version published ${days(versionAge)} ago`,
      versionAge < 2
        ? 'Trust: this version was published less than 2 days ago; hijacked releases are usually caught within days.'
        : points < TRUST_MAX.version_age / 2
          ? `Trust: this version is recent (published ${days(versionAge)} ago); hijacked releases are usually caught within days.`
          : undefined,
    );
  }

  const maintainers = input.maintainers;
  if (maintainers === undefined || maintainers === 0) {
    add('maintainers', TRUST_MAX.maintainers / 2, 'unknown: neutral');
  } else if (maintainers === 1) {
    add(
      'maintainers',
      4,
      'one maintainer',
      'Trust: one maintainer; a single compromised account can publish a release.',
    );
  } else {
    add('maintainers', maintainers === 2 ? 7 : TRUST_MAX.maintainers, `${maintainers} maintainers`);
  }

  // Most of npm publishes without provenance: its absence is the neutral point, not a penalty;
  // losing it from one release to the next is.
  if (input.provenanceLost !== undefined) {
    add(
      'provenance',
      0,
      `no provenance attestation, though ${input.provenanceLost} had one`,
      `Trust: this version has no provenance attestation, though ${input.provenanceLost} had one; it was not built by the package's usual CI.`,
    );
  } else if (input.provenance === true) {
    add('provenance', TRUST_MAX.provenance, 'provenance attestation (built and signed in CI)');
  } else {
    add(
      'provenance',
      5,
      input.provenance === false ? 'no provenance attestation (like most of npm)' : 'unknown: neutral',
    );
  }

  if (input.deprecated !== undefined) {
    add(
      'deprecation',
      DEPRECATION_POINTS,
      'deprecated',
      `Trust: this version is deprecated: ${input.deprecated.slice(0, 200)}`,
    );
  }

  const total = components.reduce((sum, c) => sum + c.points, 0);
  return { score: Math.max(0, Math.min(100, Math.round(total))), components, reasons };
}

function ageDays(from: Date | undefined, now: Date): number | undefined {
  if (from === undefined || Number.isNaN(from.getTime())) return undefined;
  return Math.max(0, (now.getTime() - from.getTime()) / DAY_MS);
}

function days(n: number): string {
  const whole = Math.floor(n);
  return whole === 1 ? '1 day' : `${whole} days`;
}

function round1(n: number): number {
  return Math.round(n * 10) / 10;
}

/**
 * The trust inputs that do not change with time or downloads, kept in the scan basis so the
 * downloads refresh can recompute the trust score without fetching the package again.
 */
export interface StoredTrustInput {
  readonly maintainers: number | undefined;
  readonly packageCreated: string | undefined;
  readonly versionPublished: string | undefined;
  readonly provenance: boolean | undefined;
  readonly provenanceLost?: string;
  readonly deprecated?: string;
}

/** The response fields of a trust result. */
export function trustFields(trust: TrustResult): Pick<PackageResponse, 'trust_score' | 'trust_components'> {
  return { trust_score: trust.score, trust_components: trust.components.map((c) => ({ ...c })) };
}

/** The trust score of stored inputs with a download count, at `now`. */
export function trustFrom(
  input: StoredTrustInput,
  downloads: {
    count: number | undefined;
    source: DownloadsSource | undefined;
    unknownReason?: string | undefined;
  },
  now: Date,
): TrustResult {
  const full: TrustInput = {
    weeklyDownloads: downloads.count,
    ...(downloads.unknownReason !== undefined ? { downloadsUnknownReason: downloads.unknownReason } : {}),
    ...(downloads.count !== undefined && downloads.source
      ? { downloadsSource: describeSource(downloads.source) }
      : {}),
    maintainers: input.maintainers,
    packageCreated: dateFrom(input.packageCreated),
    versionPublished: dateFrom(input.versionPublished),
    provenance: input.provenance,
    ...(input.provenanceLost !== undefined ? { provenanceLost: input.provenanceLost } : {}),
    deprecated: input.deprecated,
    now,
  };
  return trustScore(full);
}

/** A download source in words: "download API, week to 2026-11-22". */
export function describeSource(source: DownloadsSource): string {
  switch (source.kind) {
    case 'download-api':
      return `download API${source.as_of ? `, week to ${source.as_of}` : ''}`;
    case 'download-counts':
      return `offline table${source.as_of ? ` of ${source.as_of}` : ''}, monthly count scaled to a week`;
    default:
      return 'no source';
  }
}

function dateFrom(value: string | undefined): Date | undefined {
  if (value === undefined) return undefined;
  const ms = Date.parse(value);
  return Number.isNaN(ms) ? undefined : new Date(ms);
}
