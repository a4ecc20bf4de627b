#!/usr/bin/env node
import { execSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';

const since = process.argv[2] || execSync('git describe --tags --abbrev=0', { encoding: 'utf8' }).trim();
const log = execSync(`git log ${since}..HEAD --pretty=format:%s`, { encoding: 'utf8' }).split('\n');
const groups = { feat: [], fix: [], other: [] };
for (const l of log) {
  const m = /^(\w+)(\(.+\))?:\s*(.+)$/.exec(l);
  (groups[m?.[1]] || groups.other).push(m ? m[3] : l);
}
const out = ['## Unreleased', '', '### Features', ...groups.feat.map((s) => `- ${s}`), '', '### Fixes', ...groups.fix.map((s) => `- ${s}`), ''];
writeFileSync('CHANGELOG.md', out.join('\n'));
console.log('CHANGELOG.md written');
