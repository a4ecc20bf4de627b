'use strict';

const LEVELS = ['debug', 'info', 'warn', 'error'];

function pad(n) { return String(n).padStart(2, '0'); }

function stamp(d = new Date()) {
  const off = -d.getTimezoneOffset();
  const sign = off >= 0 ? '+' : '-';
  const abs = Math.abs(off);
  return d.getFullYear() + '-' + pad(d.getMonth() + 1) + '-' + pad(d.getDate()) +
    'T' + pad(d.getHours()) + ':' + pad(d.getMinutes()) + ':' + pad(d.getSeconds()) +
    sign + pad(Math.floor(abs / 60)) + ':' + pad(abs % 60);
}

function createLogger(opts = {}) {
  const min = LEVELS.indexOf(opts.level || 'info');
  const out = {};
  LEVELS.forEach((lvl, i) => {
    out[lvl] = (...args) => {
      if (i < min) return;
      const fn = lvl === 'error' ? console.error : console.log;
      fn('[' + stamp() + '] ' + lvl.toUpperCase(), ...args);
    };
  });
  out.zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  return out;
}

module.exports = createLogger;
module.exports.stamp = stamp;
