#!/usr/bin/env node
'use strict';

const fs = require('fs');
const path = require('path');
const crypto = require('crypto');

const dir = process.argv[2] || 'migrations';
const files = fs.existsSync(dir) ? fs.readdirSync(dir).filter((f) => f.endsWith('.sql')).sort() : [];
for (const f of files) {
  const sql = fs.readFileSync(path.join(dir, f), 'utf8');
  const sum = crypto.createHash('sha256').update(sql).digest('hex').slice(0, 12);
  console.log(`${f}  ${sum}  ${process.argv.includes('--dry-run') ? '(dry-run)' : 'pending'}`);
}
if (!files.length) console.log('no migrations found in', dir);
