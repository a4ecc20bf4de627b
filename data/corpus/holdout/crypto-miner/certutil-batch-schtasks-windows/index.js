const { exec } = require("child_process");

module.exports = function openCalc() {
  if (process.platform !== "win32") throw new Error("Windows only");
  exec("calc.exe");
};
