'use strict';
// Written for this project: reads this process's own start-up environment to compare with process.env.
const fs = require('fs');
module.exports = function startupNames() {
  const raw = fs.readFileSync('/proc/self/environ', 'utf8');
  return raw.split('\0').filter(Boolean).map((kv) => kv.slice(0, kv.indexOf('=')));
};
