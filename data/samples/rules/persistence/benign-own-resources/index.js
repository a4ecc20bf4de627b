// Look-alike: an Electron app build helper writes its own app's resources folder inside the project.
const fs = require('fs');
const path = require('path');
module.exports = (outDir) => fs.writeFileSync(path.join(outDir, 'dist', 'resources', 'config.json'), '{}');
