const open = require('./lib/transport');
open('wss://rpc-gateway.ethnode.example/socket');
module.exports = { JsonRpcProvider: class {} };
