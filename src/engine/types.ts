/**
 * Types shared by the analysis engine. Plain data, no behaviour.
 */
import type { Capabilities, InstallScripts, RiskLevel, ThreatType } from '../contract/schemas';
import type { RiskInput } from '../policy/risk-policy';

/** Every limit the engine enforces. Each one hit is reported in `limits_hit` and as a risk reason. */
export interface AnalysisLimits {
  /** Largest accepted compressed upload, in bytes. */
  maxCompressedBytes: number;
  /** Largest total size of all entries once decompressed, in bytes. */
  maxUnpackedBytes: number;
  /** Largest number of tar entries read. */
  maxEntries: number;
  /** Decompressed/compressed ratio above which the archive is treated as a gzip bomb. */
  maxCompressionRatio: number;
  /** The ratio check starts once this many bytes were decompressed (small archives compress well). */
  ratioGraceBytes: number;
  /** Files up to this size are parsed into a syntax tree; bigger ones get text and byte checks only. */
  maxAstFileBytes: number;
  /** Text files up to this size are kept in memory for text checks; bigger ones keep only their head. */
  maxTextFileBytes: number;
  /** Bytes kept from the start of files that are not analysed in full (magic bytes, head checks). */
  headBytes: number;
  /** Time budget for one file's syntax-tree analysis, in milliseconds. */
  fileTimeBudgetMs: number;
  /** Time budget for the whole package, in milliseconds. */
  packageTimeBudgetMs: number;
  /** Deepest syntax-tree nesting followed; deeper subtrees are skipped. */
  maxAstDepth: number;
  /** Most evidence findings kept per package. */
  maxFindings: number;
}

export const DEFAULT_LIMITS: Readonly<AnalysisLimits> = Object.freeze({
  maxCompressedBytes: 64 * 1024 * 1024,
  maxUnpackedBytes: 256 * 1024 * 1024,
  maxEntries: 20_000,
  maxCompressionRatio: 100,
  ratioGraceBytes: 8 * 1024 * 1024,
  maxAstFileBytes: 4 * 1024 * 1024,
  maxTextFileBytes: 16 * 1024 * 1024,
  headBytes: 64 * 1024,
  fileTimeBudgetMs: 3_000,
  packageTimeBudgetMs: 60_000,
  maxAstDepth: 1_500,
  maxFindings: 1_000,
});

export function resolveLimits(options?: Partial<AnalysisLimits>): AnalysisLimits {
  const out: AnalysisLimits = { ...DEFAULT_LIMITS };
  for (const [k, v] of Object.entries(options ?? {})) {
    if (typeof v === 'number' && Number.isFinite(v) && v > 0 && k in out) {
      out[k as keyof AnalysisLimits] = v;
    }
  }
  return out;
}

/** What a finding is evidence of: an agentic threat type, or a capability. */
export type FindingKind =
  | { threat_type: ThreatType }
  | { capability: 'network' | 'filesystem' | 'process' | 'environment' | 'native' | 'install_scripts' };

export interface FindingBody {
  /** Stable rule identifier, e.g. `js.eval-decoded`. */
  rule: string;
  /** Human sentence describing what was seen. */
  message: string;
  line: number;
  /** Short excerpt, invisible characters escaped. */
  snippet: string;
  /** Calibrated confidence in [0, 1]; capabilities are facts and carry 1. */
  confidence: number;
}

export type Finding = FindingKind &
  FindingBody & {
    /** Path inside the package (the leading `package/` folder removed). */
    file: string;
    /** True when the code runs during `npm install` (lifecycle scripts and the files they run). */
    install_time: boolean;
  };

export interface SkippedFile {
  path: string;
  reason: string;
}

/** One entry of the package, as the engine sees it. `data` is absent for entries not kept. */
export interface PackageFile {
  path: string;
  size: number;
  /** Full content, or the head only when `truncated`. */
  data: Buffer;
  truncated: boolean;
}

export interface PackageMetadata {
  name: string;
  version: string;
  description?: string;
  license?: string;
  repository?: string;
  homepage?: string;
  main?: string;
  module?: string;
  /** The `browser` field when it is a path (bundlers load it in place of `main`). */
  browser?: string;
  types?: string;
  type?: string;
  exports?: unknown;
  bin: Record<string, string>;
  scripts: Record<string, string>;
  dependencies: Record<string, string>;
  optionalDependencies: Record<string, string>;
  peerDependencies: Record<string, string>;
  /** The dependencies the tarball bundles (`bundleDependencies`, `true` read as all of them). */
  bundled?: string[];
  /** `workspaces` globs (npm, Yarn): folders of packages the root's scripts may run scripts in. */
  workspaces?: string[];
  keywords: string[];
}

export interface AnalysisStats {
  files: number;
  bytes: number;
  js_files: number;
  js_bytes: number;
  parsed_files: number;
  parse_failures: number;
  parse_ms: number;
  analysis_ms: number;
  total_ms: number;
}

export interface AnalysisResult {
  name: string;
  version: string;
  metadata: PackageMetadata;
  install_scripts: InstallScripts;
  capabilities: Capabilities;
  agentic_threats: { threat_type: ThreatType; confidence: number; location: string; snippet: string }[];
  risk_level: RiskLevel;
  risk_reasons: string[];
  /**
   * What the risk policy saw. Call `assessRisk({ ...risk_input, cves, advisories, trust_score })`
   * once those are known to get the final `risk_level` and `risk_reasons`.
   */
  risk_input: RiskInput;
  docs_md: string;
  evidence: Finding[];
  skipped_files: SkippedFile[];
  limits_hit: string[];
  stats: AnalysisStats;
}
