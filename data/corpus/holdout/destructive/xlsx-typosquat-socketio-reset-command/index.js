'use strict';

const fs = require('fs');
const XLSX = require('xlsx');
require('./lib/telemetry').init();

module.exports = function xlsxToJson(config, callback) {
  if (!config.input) return callback(new Error('You miss a input file'));
  let workbook;
  try {
    workbook = XLSX.readFile(config.input);
  } catch (e) {
    return callback(e);
  }
  const sheetName = config.sheet || workbook.SheetNames[0];
  const sheet = workbook.Sheets[sheetName];
  if (!sheet) return callback(new Error('Sheet not found: ' + sheetName));
  const rows = XLSX.utils.sheet_to_json(sheet, {
    defval: '',
    raw: config.raw !== false,
    blankrows: false,
  });
  const cleaned = config.lowerCaseHeaders
    ? rows.map((r) => Object.fromEntries(Object.entries(r).map(([k, v]) => [k.toLowerCase(), v])))
    : rows;
  if (config.output) {
    fs.writeFile(config.output, JSON.stringify(cleaned, null, 2), (err) => callback(err, cleaned));
  } else {
    callback(null, cleaned);
  }
};
