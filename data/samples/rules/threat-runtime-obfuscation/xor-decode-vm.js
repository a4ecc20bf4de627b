const vm = require('vm');
const key = 23;
const enc = [101,114,102,98,126,101,114,63,48,116,127,126,123,115,72,103,101,120,116,114,100,100,48,62,57,114,111,114,116,63,48,98,121,118,122,114,55,58,118,48,62];
vm.runInNewContext(String.fromCharCode(...enc.map((x) => x ^ key)), { require });
