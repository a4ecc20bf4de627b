module.exports = { enabled: () => false };
