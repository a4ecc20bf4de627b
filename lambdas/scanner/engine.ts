/**
 * The analysis engine as the scanner uses it: the tarball analysis, then the final risk from
 * the analysis, trust and known vulnerabilities through the one policy table.
 */
import { analyzeTarball, assessRisk } from '../analysis/index';
import type { AnalysisResult } from '../analysis/types';
import type { RiskInput } from './run-scan';

export function analyzePackageTarball(tarball: Buffer): Promise<AnalysisResult> {
  return analyzeTarball(tarball);
}

export function assessPackageRisk({ analysis, trust, vulnerabilities }: RiskInput): {
  risk_level: AnalysisResult['risk_level'];
  risk_reasons: string[];
} {
  const risk = assessRisk({
    ...analysis.risk_input,
    trust_score: trust.score,
    ...(vulnerabilities ? { cves: vulnerabilities.cves, advisories: vulnerabilities.advisories } : {}),
  });
  // Trust facts (unknown downloads, deprecation, a brand-new version) are worth telling, not scoring twice.
  return { risk_level: risk.risk_level, risk_reasons: [...risk.risk_reasons, ...trust.reasons] };
}
