// Downloads a release archive of the package's own binary, verifies its checksum and extracts it (esbuild/sharp style).
const https = require('https');
const crypto = require('crypto');
const fs = require('fs');
const EXPECTED = 'a3f5c1d2e4b6a7980123456789abcdef0123456789abcdef0123456789abcdef';
module.exports = function fetchBinary(url, dest, cb) {
  https.get(url, (res) => {
    const chunks = [];
    res.on('data', (c) => chunks.push(c));
    res.on('end', () => {
      const buf = Buffer.concat(chunks);
      if (crypto.createHash('sha256').update(buf).digest('hex') !== EXPECTED) return cb(new Error('checksum mismatch'));
      fs.writeFileSync(dest, buf);
      cb(null, dest);
    });
  });
};
