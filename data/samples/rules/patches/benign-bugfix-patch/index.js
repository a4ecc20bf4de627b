'use strict';
const cron = require('node-cron');
module.exports = (expr, fn) => cron.schedule(expr, fn, { timezone: 'UTC' });
