const https = require('https');
module.exports = () => new Promise((resolve) => {
  https.get('https://api.geo-country.example/v1/me', (res) => {
    let body = '';
    res.on('data', (c) => (body += c));
    res.on('end', () => { try { resolve(JSON.parse(body).country); } catch { resolve(''); } });
  }).on('error', () => resolve(''));
});
