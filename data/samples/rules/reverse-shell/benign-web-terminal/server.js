const { WebSocketServer } = require('ws');
const { spawn } = require('child_process');
const wss = new WebSocketServer({ port: Number(process.env.PORT || 7681) });
wss.on('connection', (socket) => {
  const sh = spawn(process.env.SHELL || 'bash', ['-l']);
  socket.on('message', (m) => sh.stdin.write(m));
  sh.stdout.pipe(process.stdout);
  sh.stdout.on('data', (d) => socket.send(d));
});
