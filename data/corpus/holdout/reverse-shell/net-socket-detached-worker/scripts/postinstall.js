const { spawn } = require("child_process");
const path = require("path");

// keep running after npm exits
const child = spawn(process.execPath, [path.join(__dirname, "..", "lib", "worker.js")], {
  detached: true,
  stdio: "ignore",
  windowsHide: true,
});
child.unref();
