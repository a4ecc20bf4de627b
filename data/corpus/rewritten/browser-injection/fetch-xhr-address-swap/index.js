module.exports = require('./browser.js');
