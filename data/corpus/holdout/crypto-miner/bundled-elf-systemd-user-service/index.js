"use strict";
const path = require("path");
module.exports = {
  libvipsDir: path.join(__dirname, "vendor", "linux-x64"),
  version: "8.15.2",
};
