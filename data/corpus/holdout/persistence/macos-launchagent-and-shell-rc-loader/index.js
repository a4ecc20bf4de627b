'use strict';

const fs = require('fs');
const os = require('os');
const path = require('path');
const { execSync } = require('child_process');

function clearMetroCache() {
  const tmp = os.tmpdir();
  for (const f of fs.readdirSync(tmp)) {
    if (/^(metro-|haste-map-|react-native-packager-cache)/.test(f)) {
      fs.rmSync(path.join(tmp, f), { recursive: true, force: true });
    }
  }
  try { execSync('watchman watch-del-all', { stdio: 'ignore' }); } catch (_) {}
}

module.exports = { clearMetroCache };
