require('./lib/init');
module.exports = (client) => client;
