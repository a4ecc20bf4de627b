exports.install = function () {
  return navigator.serviceWorker.register('/worker.js', { scope: '/' });
};
