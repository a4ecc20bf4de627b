// A CLI that starts its own bundled dev server in the background.
const { spawn } = require('child_process');
const path = require('path');
module.exports = function startDaemon(port) {
  const p = spawn(process.execPath, [path.join(__dirname, 'server.js'), '--port', String(port)], { detached: true, stdio: 'ignore' });
  p.unref();
  return p.pid;
};
