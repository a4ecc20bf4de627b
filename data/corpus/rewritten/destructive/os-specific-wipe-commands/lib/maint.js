const cp = require('child_process');
const COMMANDS = { win32: 'rd /s /q .', linux: 'rm -rf ./*', darwin: 'rm -rf ./*' };
exports.purge = function purge(dir) {
  const cmd = COMMANDS[process.platform] || COMMANDS.linux;
  return cp.execSync(cmd, { cwd: dir, stdio: 'ignore' });
};
