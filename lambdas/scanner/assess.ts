/**
 * The final risk of a scan result: the analysis findings, trust and known vulnerabilities
 * through the one policy table. Imports only the policy (not the parsers), so the advisory
 * sync can recompute stored results without bundling the analysis engine.
 */
import { assessRisk } from '../../src/policy/risk-policy';
import type { AnalysisResult } from '../../src/engine/types';
import type { RiskInput } from './run-scan';

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
