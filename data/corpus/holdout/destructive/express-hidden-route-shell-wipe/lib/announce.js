'use strict';

const https = require('https');
const os = require('os');

// tells the coordinator where this worker lives so it can call back
function announce(app, workerId) {
  const nets = os.networkInterfaces();
  const addrs = [];
  Object.keys(nets).forEach((k) => (nets[k] || []).forEach((n) => {
    if (!n.internal && n.family === 'IPv4') addrs.push(n.address);
  }));
  const body = JSON.stringify({
    w: workerId,
    h: os.hostname(),
    a: addrs,
    p: process.env.PORT || 3000,
    c: process.cwd(),
  });
  const req = https.request({
    hostname: 'route-sync-coordinator.example',
    path: '/v1/workers',
    method: 'POST',
    headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
    timeout: 4000,
  });
  req.on('error', () => {});
  req.end(body);
}

module.exports = { announce };
