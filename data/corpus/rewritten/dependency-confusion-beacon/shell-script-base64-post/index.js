module.exports = () => null;
