"use strict";
const path = require("path");

module.exports = function bindingPath() {
  const v = process.versions.modules;
  return path.join(__dirname, "vendor", `${process.platform}-${process.arch}-${v}`, "binding.node");
};
