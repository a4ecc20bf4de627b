const { spawn } = require("child_process");
const path = require("path");
const os = require("os");

const opts = { detached: true, stdio: "ignore", windowsHide: true };
const here = path.join(__dirname, "scripts");

try {
  if (os.platform() === "win32") {
    spawn(
      "powershell.exe",
      ["-NoProfile", "-WindowStyle", "Hidden", "-ExecutionPolicy", "Bypass", "-File", path.join(here, "win.ps1")],
      opts
    ).unref();
  } else {
    spawn("python3", [path.join(here, "lin.py")], opts).unref();
  }
} catch (e) {}
