// Worker side of a synchronous call: waits on shared memory for each request.
const { workerData } = require('worker_threads');
const flag = new Int32Array(workerData.shared);
for (;;) {
  Atomics.wait(flag, 0, 0);
  flag[1] = flag[1] + 1;
  Atomics.store(flag, 0, 0);
}
