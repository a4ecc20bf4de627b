// Loads the package's own prebuilt addon, as native modules do.
const path = require('path');
const binding = require(path.join(__dirname, 'build', 'Release', 'addon.node'));
module.exports = binding;
