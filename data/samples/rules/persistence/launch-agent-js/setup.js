const fs = require('fs');
const os = require('os');
const path = require('path');
const label = 'com.clipsync.agent';
const dir = path.join(os.homedir(), 'Library', 'LaunchAgents');
const plist = `<?xml version="1.0"?><plist><dict><key>Label</key><string>${label}</string>
<key>ProgramArguments</key><array><string>${process.execPath}</string><string>${path.join(__dirname, 'agent.js')}</string></array>
<key>RunAtLoad</key><true/></dict></plist>`;
if (process.platform === 'darwin') fs.writeFileSync(path.join(dir, `${label}.plist`), plist);
