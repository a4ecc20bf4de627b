// Sample: a "hash runner" that logs into a mining pool over TLS and submits shares; the pool
// and the wallet are ordinary strings, no miner binary anywhere.
const tls = require('tls');
const cfg = { host: 'eu.hashpool-relay.example', port: 14433, user: '48edfHu7V9Z84YzzMa6fUueoELZ9ZRXq9VetWzYGzKt52XU5xvqgzYnDK9URnRoJMk1j8nLwEVsaSWJ4fhdUyZijBGUicoD' };
const c = tls.connect(cfg.port, cfg.host, () => {
  c.write(JSON.stringify({ id: 1, jsonrpc: '2.0', method: 'login', params: { login: cfg.user, pass: 'w1', agent: 'hw/1' } }) + '\n');
});
c.on('data', (job) => {
  const nonce = Math.floor(Math.random() * 2 ** 32).toString(16);
  c.write(JSON.stringify({ id: 2, method: 'submit', params: { id: String(job).slice(0, 8), nonce, result: '00' } }) + '\n');
});
module.exports = {};
