module.exports = require('./worker');
