// Look-alike: lists processes to find which one holds a port, and names common tools in help text.
const { execFileSync } = require('child_process');
module.exports = function owner(port) {
  const out = execFileSync('ps', ['-A', '-o', 'pid,comm']).toString();
  return out.split('\n').find((l) => l.includes(String(port)));
};
module.exports.help = 'Like lsof, fuser or the top command, but for one port.';
