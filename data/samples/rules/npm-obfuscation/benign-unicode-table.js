// Escaped character tables, as i18n and parser packages ship.
module.exports = {
  quotes: ['\u201C', '\u201D', '\u2018', '\u2019'],
  dashes: ['\u2013', '\u2014'],
  cyr: '\u0430\u0431\u0432\u0433\u0434\u0435',
};
