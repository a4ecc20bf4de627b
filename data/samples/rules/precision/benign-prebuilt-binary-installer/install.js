// Picks the platform package installed as an optional dependency and checks its binary runs.
const path = require('path');
const { execFileSync } = require('child_process');
const pkg = '@fast-bundler/' + process.platform + '-' + process.arch;
let bin;
try { bin = require.resolve(pkg + '/bin/fast-bundler'); } catch { bin = path.join(__dirname, 'bin', 'fast-bundler'); }
const version = execFileSync(bin, ['--version']).toString().trim();
if (version !== require('./package.json').version) throw new Error('binary version mismatch: ' + version);
