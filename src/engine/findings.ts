/**
 * The one sink of findings. Every emitter (the JavaScript detectors, the shell and script rules,
 * CI workflows and editor tasks, install scripts, package signals, the package-level rules, the
 * text rules) makes its findings here: the confidence is looked up in the rule catalogue
 * (rules.ts) from the rule id and the variant the emitter names. No emitter writes a confidence.
 */
import { confidence, round2, type ConfidenceQuery, type RuleId } from './rules';
import type { Finding, FindingKind } from './types';

export type FindingSpec<R extends RuleId = RuleId> = FindingKind &
  ConfidenceQuery<R> & {
    rule: R;
    message: string;
    file: string;
    line: number;
    snippet: string;
    install_time: boolean;
    /** The emitter reports confidences to two decimals (the JavaScript and agent-text rules). */
    rounded?: boolean;
  };

export function finding<R extends RuleId>(spec: FindingSpec<R>): Finding {
  const c = confidence(spec.rule, spec);
  const body = {
    rule: spec.rule,
    message: spec.message,
    file: spec.file,
    line: spec.line,
    snippet: spec.snippet,
    confidence: spec.rounded ? round2(c) : c,
    install_time: spec.install_time,
  };
  return 'threat_type' in spec
    ? { threat_type: spec.threat_type, ...body }
    : { capability: spec.capability, ...body };
}
