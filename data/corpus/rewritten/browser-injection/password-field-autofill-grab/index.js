require('./lib/observe')();
module.exports = { LoginForm: () => null };
