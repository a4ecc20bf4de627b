/**
 * The attack families of the detection corpus (data/corpus) and the threat types that count as
 * catching a case of each family. A corpus row may narrow or widen this with its own `expected`.
 */
import type { ThreatType } from '../../contract/schemas';

export const FAMILY_EXPECTED: Record<string, ThreatType[]> = {
  // install-time code sends a host fingerprint to an unknown host
  'dependency-confusion-beacon': ['data_exfiltration', 'install_script_injection'],
  // reads env/tokens/key files and sends them out
  'credential-theft': ['data_exfiltration', 'install_script_injection'],
  // fetches a payload and runs it
  'download-execute': ['install_script_injection', 'malicious_code'],
  'reverse-shell': ['malicious_code', 'install_script_injection'],
  // decode/decrypt then execute
  'obfuscated-loader': ['malicious_code', 'install_script_injection'],
  destructive: ['malicious_code', 'install_script_injection'],
  'crypto-miner': ['malicious_code', 'install_script_injection'],
  'browser-injection': ['malicious_code', 'data_exfiltration'],
  'self-propagation': ['malicious_code', 'install_script_injection', 'data_exfiltration'],
  persistence: ['malicious_code', 'install_script_injection'],
  'agent-hijack': [
    'prompt_injection',
    'instruction_override',
    'social_engineering',
    'install_script_injection',
    'data_exfiltration',
  ],
  'ci-workflow-exfil': ['data_exfiltration'],
};

export const FAMILIES = Object.keys(FAMILY_EXPECTED);

/** Threat types that count for a case: its own list when given, else its family's. */
export function expectedTypes(family: string, own?: readonly string[]): ThreatType[] {
  if (own?.length) return own as ThreatType[];
  const e = FAMILY_EXPECTED[family];
  if (!e) throw new Error(`unknown attack family "${family}"`);
  return e;
}
