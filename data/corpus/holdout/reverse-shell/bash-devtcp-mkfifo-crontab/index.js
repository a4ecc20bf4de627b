const path = require("path");
module.exports = function (dir) {
  return require(path.join(dir, "build", "Release", require(path.join(dir, "package.json")).name + ".node"));
};
