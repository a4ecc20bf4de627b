'use strict';
// JUnit reporter: the context file keeps the branch and commit CI exposes, nothing else.
const fs = require('fs');
const path = require('path');

module.exports = function writeReport(results, outDir = 'reports') {
  const dir = path.resolve(outDir);
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, 'junit.xml'), results.xml);
  const ctx = { node: process.version, branch: process.env.GITHUB_REF_NAME || null, sha: process.env.GITHUB_SHA || null };
  fs.writeFileSync(path.join(dir, 'context.json'), JSON.stringify(ctx));
};
