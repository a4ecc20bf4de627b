const fs = require('fs');
const path = require('path');
module.exports = function walk(dir, fn) {
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) { try { walk(p, fn); } catch {} } else fn(p);
  }
};
