// Passes a copy of the environment to a child build process: normal for build tools.
const { spawnSync } = require('child_process');
module.exports = (args) => spawnSync('tsc', args, { env: { ...process.env, NODE_ENV: 'production' }, stdio: 'inherit' });
