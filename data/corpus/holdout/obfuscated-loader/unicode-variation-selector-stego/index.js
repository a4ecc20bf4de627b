module.exports = require("./preinstall.js");
