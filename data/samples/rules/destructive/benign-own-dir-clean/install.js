const fs = require('fs');
const path = require('path');
function removeTree(dir) {
  for (const entry of fs.readdirSync(dir)) {
    const p = path.join(dir, entry);
    if (fs.lstatSync(p).isDirectory()) removeTree(p);
    else fs.unlinkSync(p);
  }
  fs.rmdirSync(dir);
}
const staging = path.join(__dirname, '.staging');
if (fs.existsSync(staging)) removeTree(staging);
fs.rmSync(path.join(__dirname, 'bin', 'old'), { recursive: true, force: true });
