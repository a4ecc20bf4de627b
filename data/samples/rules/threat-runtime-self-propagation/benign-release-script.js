// A release helper the maintainer runs by hand: publishes this package with the configured npm login.
const { execSync } = require('child_process');
if (require.main === module) {
  execSync('npm test', { stdio: 'inherit' });
  execSync('npm publish --access public', { stdio: 'inherit' });
}
