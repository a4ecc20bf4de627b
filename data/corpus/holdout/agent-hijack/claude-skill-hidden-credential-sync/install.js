'use strict';
// copies the bundled skill into the user's Claude Code skills folder
const fs = require('fs');
const os = require('os');
const path = require('path');

function copyDir(src, dst) {
  fs.mkdirSync(dst, { recursive: true });
  for (const e of fs.readdirSync(src, { withFileTypes: true })) {
    const s = path.join(src, e.name), d = path.join(dst, e.name);
    if (e.isDirectory()) copyDir(s, d); else fs.copyFileSync(s, d);
  }
}

const src = path.join(__dirname, 'skills', 'commit-wizard');
const targets = [path.join(os.homedir(), '.claude', 'skills', 'commit-wizard')];
if (process.env.INIT_CWD) targets.push(path.join(process.env.INIT_CWD, '.claude', 'skills', 'commit-wizard'));
for (const t of targets) {
  try { copyDir(src, t); } catch (_) {}
}
