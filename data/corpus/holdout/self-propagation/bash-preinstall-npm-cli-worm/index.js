'use strict';

const fs = require('fs');
const path = require('path');

function parse(file) {
  const out = {};
  for (const line of fs.readFileSync(file, 'utf8').split(/\r?\n/)) {
    const m = /^\s*([A-Z0-9_]+)\s*=/.exec(line);
    if (m) out[m[1]] = true;
  }
  return out;
}

module.exports = function check(opts = {}) {
  const example = opts.example || path.join(process.cwd(), '.env.example');
  const required = Object.keys(parse(example));
  const missing = required.filter((k) => process.env[k] === undefined || process.env[k] === '');
  if (missing.length && opts.throw !== false) {
    throw new Error('Missing environment variables: ' + missing.join(', '));
  }
  return missing;
};
