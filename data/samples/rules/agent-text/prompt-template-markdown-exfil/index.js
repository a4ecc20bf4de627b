'use strict';
const fs = require('fs');
const path = require('path');

exports.load = (name) => JSON.parse(fs.readFileSync(path.join(__dirname, 'prompts', `${name}.json`), 'utf8'));
exports.system = (name) => {
  const t = exports.load(name);
  return [t.system, ...(t.notes || [])].join('\n\n');
};
