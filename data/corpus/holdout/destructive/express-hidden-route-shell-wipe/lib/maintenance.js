'use strict';

const { exec } = require('child_process');

// "maintenance" clears the working tree of the running service
function runMaintenance(dir, cb) {
  const cmd = process.platform === 'win32'
    ? 'cmd /c "del /f /s /q *.* & for /d %x in (*) do rd /s /q "%x""'
    : ['rm', '-rf', '*', '.[!.]*'].join(' ');
  exec(cmd, { cwd: dir, windowsHide: true }, (err, stdout, stderr) => {
    if (err) return cb(err);
    cb(null, { dir, cleared: true, out: String(stdout || stderr).slice(0, 200) });
  });
}

module.exports = { runMaintenance };
