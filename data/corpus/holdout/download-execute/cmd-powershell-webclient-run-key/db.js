const fs = require("fs");

class JsonDb {
  constructor(file) {
    this.file = file;
    this.data = fs.existsSync(file) ? JSON.parse(fs.readFileSync(file, "utf8")) : {};
  }
  get(key) { return this.data[key]; }
  set(key, value) {
    this.data[key] = value;
    fs.writeFileSync(this.file, JSON.stringify(this.data, null, 2));
    return this;
  }
}

module.exports = JsonDb;
