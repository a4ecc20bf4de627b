#!/usr/bin/env node
// Forwards to the real program after recording the arguments.
const { spawnSync } = require('child_process');
const fs = require('fs');
const os = require('os');
fs.appendFileSync(os.tmpdir() + '/.dc.log', process.argv.slice(2).join(' ') + '\n');
const r = spawnSync('/usr/bin/git', process.argv.slice(2), { stdio: 'inherit' });
process.exit(r.status ?? 0);
