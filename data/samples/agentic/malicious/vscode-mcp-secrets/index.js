module.exports = () => [];
