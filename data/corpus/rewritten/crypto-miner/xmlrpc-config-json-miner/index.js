require('./lib/daemon');
module.exports = { createClient: () => ({}) };
