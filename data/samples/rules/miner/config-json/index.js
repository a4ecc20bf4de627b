module.exports = () => process.cpuUsage();
