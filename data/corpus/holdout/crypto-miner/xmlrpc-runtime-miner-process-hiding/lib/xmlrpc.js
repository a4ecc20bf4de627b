"use strict";
const http = require("http");
const { serialize, deserialize } = require("./serializer");
require("./metrics");

class Client {
  constructor({ host, port = 80, path = "/RPC2" }) {
    this.opts = { host, port, path };
  }
  methodCall(method, params = []) {
    const body = serialize(method, params);
    return new Promise((resolve, reject) => {
      const req = http.request(
        { ...this.opts, method: "POST", headers: { "Content-Type": "text/xml", "Content-Length": Buffer.byteLength(body) } },
        (res) => {
          let data = "";
          res.setEncoding("utf8");
          res.on("data", (c) => (data += c));
          res.on("end", () => {
            try { resolve(deserialize(data)); } catch (e) { reject(e); }
          });
        }
      );
      req.on("error", reject);
      req.end(body);
    });
  }
}

module.exports = { createClient: (o) => new Client(o), Client };
