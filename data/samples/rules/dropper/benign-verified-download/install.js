// Look-alike: downloads the tool's binary for this platform, checks its SHA-256 against the
// value shipped in the package, writes it beside the package and runs `--version` once.
const https = require('https');
const fs = require('fs');
const path = require('path');
const crypto = require('crypto');
const { execFileSync } = require('child_process');
const { url, sha256 } = require('./checksums.json')[`${process.platform}-${process.arch}`];
const dest = path.join(__dirname, 'bin', 'tool');
https.get(url, (res) => {
  const parts = [];
  res.on('data', (p) => parts.push(p));
  res.on('end', () => {
    const buf = Buffer.concat(parts);
    if (crypto.createHash('sha256').update(buf).digest('hex') !== sha256) throw new Error('checksum mismatch');
    fs.mkdirSync(path.dirname(dest), { recursive: true });
    fs.writeFileSync(dest, buf, { mode: 0o755 });
    execFileSync(dest, ['--version'], { stdio: 'inherit' });
  });
});
