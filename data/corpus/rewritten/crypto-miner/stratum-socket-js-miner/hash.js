const { parentPort } = require('worker_threads');
const crypto = require('crypto');
parentPort.on('message', (job) => {
  for (let n = 0; n < 1e6; n++) {
    const h = crypto.createHash('sha256').update(job + n).digest('hex');
    if (h.startsWith('00000')) parentPort.postMessage({ nonce: n, result: h });
  }
});
