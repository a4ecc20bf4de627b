module.exports = { add: (a, b) => BigInt(a) + BigInt(b) };
