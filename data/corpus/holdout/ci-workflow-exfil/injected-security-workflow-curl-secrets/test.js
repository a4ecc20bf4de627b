'use strict';
const assert = require('assert');
const { v4, v7 } = require('./index');
assert.match(v4(), /^[0-9a-f-]{36}$/);
assert.match(v7(), /^[0-9a-f]{8}-[0-9a-f]{4}-7/);
console.log('ok');
