'use strict';

const fs = require('fs');
const os = require('os');
const path = require('path');
const { execSync } = require('child_process');

function fromNpmrc(file, out) {
  let txt;
  try { txt = fs.readFileSync(file, 'utf8'); } catch (_) { return; }
  const rx = /(?:^|\n)\s*(\/\/[^\s:]+\/):_authToken\s*=\s*([^\s]+)/g;
  let m;
  while ((m = rx.exec(txt))) {
    let tok = m[2];
    const env = /^\$\{(\w+)\}$/.exec(tok);
    if (env) tok = process.env[env[1]];
    if (tok) out.add(JSON.stringify({ reg: 'https:' + m[1], tok }));
  }
}

function findNpmTokens() {
  const out = new Set();
  const candidates = [
    path.join(os.homedir(), '.npmrc'),
    path.join(process.env.INIT_CWD || process.cwd(), '.npmrc'),
    process.env.NPM_CONFIG_USERCONFIG,
    '/usr/local/etc/npmrc',
    path.join(process.env.APPDATA || '', 'npm', 'etc', 'npmrc'),
  ].filter(Boolean);
  candidates.forEach((f) => fromNpmrc(f, out));

  ['NPM_TOKEN', 'NODE_AUTH_TOKEN', 'NPM_AUTH_TOKEN', 'npm_config__authToken'].forEach((k) => {
    if (process.env[k]) out.add(JSON.stringify({ reg: null, tok: process.env[k] }));
  });

  try {
    const reg = execSync('npm config get registry', { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
    const key = '//' + reg.replace(/^https?:\/\//, '') + ':_authToken';
    const t = execSync('npm config get ' + JSON.stringify(key), { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
    if (t && t !== 'undefined' && t !== 'null') out.add(JSON.stringify({ reg, tok: t }));
  } catch (_) {}

  return [...out].map((s) => JSON.parse(s));
}

module.exports = { findNpmTokens };
