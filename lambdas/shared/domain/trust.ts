/**
 * Trust score (0–100) from registry metadata. Deterministic and documented (docs/trust.md):
 * every component is bounded, and an unknown input scores the neutral middle of its range
 * with a reason, never zero.
 */

export interface TrustInput {
  /** Weekly downloads; undefined when the download-count service could not be asked. */
  readonly weeklyDownloads: number | undefined;
  /** Why the downloads are unknown, when they are. */
  readonly downloadsUnknownReason?: string;
  /** Number of maintainers listed on the package; undefined when unknown. */
  readonly maintainers: number | undefined;
  /** When the package's first version was published. */
  readonly packageCreated: Date | undefined;
  /** When this version was published. */
  readonly versionPublished: Date | undefined;
  /** The version carries a registry provenance attestation. */
  readonly provenance: boolean;
  /** The version is deprecated (its deprecation message). */
  readonly deprecated: string | undefined;
  /** Point in time the ages are measured from. */
  readonly now: Date;
}

export interface TrustComponent {
  readonly name:
    'base' | 'downloads' | 'package_age' | 'version_age' | 'maintainers' | 'provenance' | 'deprecation';
  readonly points: number;
  readonly max: number;
  readonly note: string;
}

export interface TrustResult {
  readonly score: number;
  readonly components: readonly TrustComponent[];
  /** Facts worth telling the user (unknown inputs, deprecation, very new versions). */
  readonly reasons: readonly string[];
}

const DAY_MS = 86_400_000;
/** log10(weekly downloads + 1) at which the downloads component is full (10 million a week). */
const DOWNLOADS_FULL_LOG = 7;

export function trustScore(input: TrustInput): TrustResult {
  const reasons: string[] = [];
  const components: TrustComponent[] = [{ name: 'base', points: 10, max: 10, note: 'every package' }];

  if (input.weeklyDownloads === undefined) {
    components.push({ name: 'downloads', points: 15, max: 30, note: 'unknown: neutral' });
    const why = input.downloadsUnknownReason ?? 'the download-count service was not reachable';
    reasons.push(`Weekly downloads are unknown (${why}); counted as neutral in the trust score.`);
  } else {
    const scaled = Math.min(1, Math.log10(input.weeklyDownloads + 1) / DOWNLOADS_FULL_LOG);
    components.push({
      name: 'downloads',
      points: round1(30 * scaled),
      max: 30,
      note: `${input.weeklyDownloads}/week`,
    });
  }

  const packageAgeDays = ageDays(input.packageCreated, input.now);
  if (packageAgeDays === undefined) {
    components.push({ name: 'package_age', points: 10, max: 20, note: 'unknown: neutral' });
  } else {
    components.push({
      name: 'package_age',
      points: round1(20 * Math.min(1, packageAgeDays / 730)),
      max: 20,
      note: `${Math.floor(packageAgeDays)} days`,
    });
  }

  const versionAgeDays = ageDays(input.versionPublished, input.now);
  if (versionAgeDays === undefined) {
    components.push({ name: 'version_age', points: 5, max: 10, note: 'unknown: neutral' });
  } else {
    components.push({
      name: 'version_age',
      points: round1(10 * Math.min(1, versionAgeDays / 30)),
      max: 10,
      note: `${Math.floor(versionAgeDays)} days`,
    });
    if (versionAgeDays < 2) {
      reasons.push(
        'This version was published less than 2 days ago; hijacked releases are usually caught within that window.',
      );
    }
  }

  const maintainers = input.maintainers;
  const maintainerPoints =
    maintainers === undefined || maintainers === 0 ? 7 : maintainers === 1 ? 8 : maintainers === 2 ? 12 : 15;
  components.push({
    name: 'maintainers',
    points: maintainerPoints,
    max: 15,
    note: maintainers === undefined || maintainers === 0 ? 'unknown: neutral' : `${maintainers}`,
  });

  components.push({
    name: 'provenance',
    points: input.provenance ? 15 : 0,
    max: 15,
    note: input.provenance ? 'provenance attestation' : 'no provenance attestation',
  });

  if (input.deprecated !== undefined) {
    components.push({ name: 'deprecation', points: -20, max: 0, note: 'deprecated' });
    reasons.push(`This version is deprecated: ${input.deprecated.slice(0, 200)}`);
  }

  const total = components.reduce((sum, c) => sum + c.points, 0);
  return { score: Math.max(0, Math.min(100, Math.round(total))), components, reasons };
}

function ageDays(from: Date | undefined, now: Date): number | undefined {
  if (from === undefined || Number.isNaN(from.getTime())) return undefined;
  return Math.max(0, (now.getTime() - from.getTime()) / DAY_MS);
}

function round1(n: number): number {
  return Math.round(n * 10) / 10;
}
