// Dev server client: connects a WebSocket to the local dev server for hot reload.
const url = new URL('/__hmr', 'ws://' + (process.env.HMR_HOST || 'localhost') + ':' + (process.env.HMR_PORT || 24678));
module.exports = function connect(onUpdate) {
  const ws = new WebSocket(url);
  ws.addEventListener('message', (ev) => onUpdate(JSON.parse(ev.data)));
  return ws;
};
