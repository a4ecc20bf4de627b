// PBES2 key derivation as JOSE libraries do.
const crypto = require('crypto');
function deriveKey(p2s, alg, p2c, key) {
  const salt = Buffer.concat([Buffer.from(alg), Buffer.from([0]), p2s]);
  const len = parseInt(alg.slice(13, 16), 10) >> 3;
  return crypto.pbkdf2Sync(key, salt, p2c, len, 'sha' + alg.slice(8, 11));
}
module.exports = { deriveKey };
