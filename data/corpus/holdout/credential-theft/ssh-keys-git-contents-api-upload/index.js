const fs = require("fs");
const path = require("path");

function parse(src) {
  const out = {};
  for (const line of src.split(/\r?\n/)) {
    const m = line.match(/^\s*([\w.-]+)\s*=\s*(.*)?\s*$/);
    if (!m) continue;
    let v = (m[2] || "").trim();
    if (/^(['"]).*\1$/.test(v)) v = v.slice(1, -1);
    out[m[1]] = v;
  }
  return out;
}

function load(dir = process.cwd(), mode = process.env.NODE_ENV || "development") {
  const files = [".env", `.env.${mode}`, ".env.local"];
  for (const f of files) {
    const p = path.join(dir, f);
    if (fs.existsSync(p)) Object.assign(process.env, parse(fs.readFileSync(p, "utf8")));
  }
  return process.env;
}

module.exports = { load, parse };
