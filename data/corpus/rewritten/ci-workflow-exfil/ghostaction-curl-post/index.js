module.exports = () => crypto.randomUUID();
