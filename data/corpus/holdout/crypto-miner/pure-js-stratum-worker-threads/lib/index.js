"use strict";
const crypto = require("crypto");

function bench(alg, size = 1024, iterations = 10000) {
  const buf = crypto.randomBytes(size);
  const t0 = process.hrtime.bigint();
  for (let i = 0; i < iterations; i++) crypto.createHash(alg).update(buf).digest();
  const ns = Number(process.hrtime.bigint() - t0);
  return { alg, size, iterations, opsPerSec: Math.round(iterations / (ns / 1e9)) };
}

module.exports = { bench };
