#!/usr/bin/env node
'use strict';

const fs = require('fs');
const path = require('path');

// prints candidate completions for `npm run <TAB>`
function scripts(dir) {
  try {
    const pj = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8'));
    return Object.keys(pj.scripts || {});
  } catch (_) {
    return [];
  }
}

const word = process.argv[2] || '';
for (const s of scripts(process.cwd())) {
  if (s.startsWith(word)) console.log(s);
}
