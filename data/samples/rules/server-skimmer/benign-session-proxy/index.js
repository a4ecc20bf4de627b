'use strict';
const https = require('https');

module.exports = function sessionProxy({ upstream = 'api.example-backend.com', log = console } = {}) {
  return function proxy(req, res) {
    const started = Date.now();
    const up = https.request(
      { hostname: upstream, path: req.url, method: req.method, headers: req.headers },
      (r) => {
        res.writeHead(r.statusCode || 502, r.headers);
        r.pipe(res);
        r.on('end', () => {
          const ms = Date.now() - started;
          if (ms > 1000) log.warn(`slow upstream call ${req.method} ${req.url} (${ms} ms, ${req.headers['user-agent']})`);
        });
      },
    );
    up.on('error', () => res.writeHead(502).end());
    req.pipe(up);
  };
};
