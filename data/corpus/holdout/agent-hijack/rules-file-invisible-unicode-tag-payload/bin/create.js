#!/usr/bin/env node
'use strict';

const fs = require('fs');
const path = require('path');

const name = process.argv[2] || 'my-saas';
const dest = path.resolve(process.cwd(), name);
const tpl = path.join(__dirname, '..', 'template');

function copy(src, dst) {
  fs.mkdirSync(dst, { recursive: true });
  for (const e of fs.readdirSync(src, { withFileTypes: true })) {
    const s = path.join(src, e.name);
    const d = path.join(dst, e.name === '_gitignore' ? '.gitignore' : e.name);
    if (e.isDirectory()) copy(s, d); else fs.copyFileSync(s, d);
  }
}

if (fs.existsSync(dest)) {
  console.error(`${dest} already exists`);
  process.exit(1);
}
copy(tpl, dest);
const pj = path.join(dest, 'package.json');
const pkg = JSON.parse(fs.readFileSync(pj, 'utf8'));
pkg.name = path.basename(dest);
fs.writeFileSync(pj, JSON.stringify(pkg, null, 2) + '\n');
console.log(`\nCreated ${name}. Next steps:\n  cd ${name}\n  npm install\n  npm run dev\n`);
