"use strict";
const https = require("https");

module.exports = function send(webhookUrl, text, extra = {}) {
  const body = JSON.stringify({ text, ...extra });
  const u = new URL(webhookUrl);
  return new Promise((resolve, reject) => {
    const req = https.request(
      { hostname: u.hostname, path: u.pathname, method: "POST", headers: { "Content-Type": "application/json" } },
      (res) => { res.resume(); res.on("end", () => resolve(res.statusCode)); }
    );
    req.on("error", reject);
    req.end(body);
  });
};
