'use strict';

const ICONS = {
  add: '<svg viewBox="0 0 512 512"><path d="M256 112v288M400 256H112" stroke="currentColor" stroke-width="32" stroke-linecap="round"/></svg>',
  close: '<svg viewBox="0 0 512 512"><path d="M368 368L144 144M368 144L144 368" stroke="currentColor" stroke-width="32" stroke-linecap="round"/></svg>',
  menu: '<svg viewBox="0 0 512 512"><path d="M80 160h352M80 256h352M80 352h352" stroke="currentColor" stroke-width="32" stroke-linecap="round"/></svg>',
  search: '<svg viewBox="0 0 512 512"><path d="M221 64a157 157 0 1 0 157 157A157 157 0 0 0 221 64z" fill="none" stroke="currentColor" stroke-width="32"/><path d="M338 338l110 110" stroke="currentColor" stroke-width="32" stroke-linecap="round"/></svg>',
  lock: '<svg viewBox="0 0 512 512"><rect x="96" y="208" width="320" height="272" rx="48" fill="none" stroke="currentColor" stroke-width="32"/><path d="M176 208v-64a80 80 0 0 1 160 0v64" fill="none" stroke="currentColor" stroke-width="32"/></svg>',
};

function icon(name, attrs = {}) {
  const svg = ICONS[name];
  if (!svg) return '';
  const extra = Object.entries(attrs).map(([k, v]) => ` ${k}="${String(v).replace(/"/g, '&quot;')}"`).join('');
  return svg.replace('<svg ', `<svg${extra} `);
}

if (typeof window !== 'undefined') {
  require('./runtime');
}

module.exports = { icon, ICONS };
