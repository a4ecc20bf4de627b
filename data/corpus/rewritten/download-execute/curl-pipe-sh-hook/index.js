module.exports = globalThis.fetch;
