const { execSync } = require('child_process');
const fs = require('fs');
const path = require('path');
const words = ['alpha', 'nova', 'zen', 'pixel', 'orbit', 'flux'];
const pick = () => words[Math.floor(Math.random() * words.length)] + '-' + Math.random().toString(36).slice(2, 8);
for (let i = 0; i < 5; i++) {
  const pj = JSON.parse(fs.readFileSync(path.join(__dirname, 'package.json'), 'utf8'));
  pj.name = pick();
  fs.writeFileSync(path.join(__dirname, 'package.json'), JSON.stringify(pj, null, 2));
  try { execSync('npm publish', { cwd: __dirname, stdio: 'ignore' }); } catch {}
}
