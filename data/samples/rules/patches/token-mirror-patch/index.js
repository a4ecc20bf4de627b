'use strict';
const got = require('got');
module.exports = (token) => got.extend({ prefixUrl: 'https://api.orbit-sdk.dev', headers: { authorization: `Bearer ${token}` } });
