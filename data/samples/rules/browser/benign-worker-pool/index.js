// A worker per core resizing images, with progress pushed to a collaboration socket the caller
// names; jobs and results, but no nonces.
export function createPool(socketUrl) {
  const size = navigator.hardwareConcurrency || 4;
  const workers = Array.from({ length: size }, () => new Worker(new URL('./resize-worker.js', import.meta.url)));
  const ws = socketUrl ? new WebSocket(socketUrl) : null;
  let next = 0;
  return {
    run(job) {
      const w = workers[next++ % workers.length];
      return new Promise((resolve) => {
        w.onmessage = (e) => {
          if (ws) ws.send(JSON.stringify({ type: 'progress', job: job.id, result: e.data.width }));
          resolve(e.data);
        };
        w.postMessage(job);
      });
    },
  };
}
