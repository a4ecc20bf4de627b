const { spawn } = require('child_process');
const path = require('path');
spawn('node', ['--version'], { env: { ...process.env, LD_PRELOAD: path.join(__dirname, 'lib', 'libhook.so') }, stdio: 'ignore' });
