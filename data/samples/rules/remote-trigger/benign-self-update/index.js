const https = require('https');
const fs = require('fs');
const path = require('path');
const local = require('./package.json').version;
https.get('https://releases.toolbin.example/latest.json', (res) => {
  let body = '';
  res.on('data', (c) => (body += c));
  res.on('end', () => {
    const latest = JSON.parse(body).version;
    if (latest !== local) fs.rmSync(path.join(__dirname, 'vendor', 'old'), { recursive: true, force: true });
  });
});
