#!/usr/bin/env node
const { execFileSync } = require('child_process');
const merged = execFileSync('git', ['branch', '--merged']).toString().split('\n').map((b) => b.trim()).filter((b) => b && !b.startsWith('*'));
for (const b of merged) if (!['main', 'master'].includes(b)) execFileSync('git', ['branch', '-d', b]);
