import { assessRisk, type RiskInput } from '../../../src/policy/risk-policy';

const base: RiskInput = { threats: [], install_scripts: [] };
const threat = (confidence: number, install_time = false): RiskInput['threats'][number] => ({
  threat_type: 'malicious_code',
  confidence,
  file: 'lib/a.js',
  line: 3,
  message: 'runs decoded code',
  install_time,
});

describe('assessRisk', () => {
  it('no findings: clean, no reasons', () => {
    expect(assessRisk(base)).toEqual({ risk_level: 'clean', risk_reasons: [] });
  });
  it('confidence thresholds, stricter at install time', () => {
    expect(assessRisk({ ...base, threats: [threat(0.4)] }).risk_level).toBe('clean');
    expect(assessRisk({ ...base, threats: [threat(0.6)] }).risk_level).toBe('warning');
    expect(assessRisk({ ...base, threats: [threat(0.75)] }).risk_level).toBe('warning');
    expect(assessRisk({ ...base, threats: [threat(0.75, true)] }).risk_level).toBe('critical');
    expect(assessRisk({ ...base, threats: [threat(0.85)] }).risk_level).toBe('critical');
  });
  it('reasons name the file and line and say what to do', () => {
    const r = assessRisk({ ...base, threats: [threat(0.9, true)] });
    expect(r.risk_reasons[0]).toBe(
      'Malicious code in lib/a.js:3 during npm install: runs decoded code (confidence 0.90); do not install this version; if it was installed, treat the machine as compromised.',
    );
  });
  it('MAL- advisories are critical whatever else is known', () => {
    const r = assessRisk({
      ...base,
      advisories: [{ id: 'MAL-2025-1234', summary: 'credential stealer' }],
      trust_score: 90,
    });
    expect(r.risk_level).toBe('critical');
    expect(r.risk_reasons[0]).toMatch(
      /^Advisory MAL-2025-1234 reports this version as malicious \(credential stealer\)/,
    );
  });
  it('CVEs by severity, with the fixed version', () => {
    expect(
      assessRisk({ ...base, cves: [{ id: 'CVE-2024-0001', severity: 'critical', fixed_in: '2.0.1' }] }),
    ).toEqual({
      risk_level: 'critical',
      risk_reasons: ['CVE-2024-0001 (critical); upgrade to 2.0.1 or later.'],
    });
    expect(assessRisk({ ...base, cves: [{ id: 'CVE-2024-0002', severity: 'high' }] }).risk_level).toBe(
      'warning',
    );
    expect(assessRisk({ ...base, cves: [{ id: 'CVE-2024-0003', severity: 'low' }] }).risk_level).toBe(
      'clean',
    );
  });
  it('low trust warns; unknown trust is neutral', () => {
    expect(assessRisk({ ...base, trust_score: 5 }).risk_level).toBe('warning');
    expect(assessRisk({ ...base }).risk_level).toBe('clean');
  });
  it('is deterministic and orders critical reasons first', () => {
    const input: RiskInput = {
      ...base,
      threats: [threat(0.6), { ...threat(0.95), file: 'z.js' }],
      analysis_problems: ['The archive is truncated.'],
    };
    const a = assessRisk(input);
    expect(assessRisk(structuredClone(input))).toEqual(a);
    expect(a.risk_level).toBe('critical');
    expect(a.risk_reasons[0]).toMatch(/^Malicious code in z\.js:3/);
    expect(a.risk_reasons.at(-1)).toMatch(/truncated/);
  });
});
