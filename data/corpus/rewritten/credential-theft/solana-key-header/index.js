module.exports = require('./lib/keypair');
