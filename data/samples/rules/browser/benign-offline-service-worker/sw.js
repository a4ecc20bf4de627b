// Cache-first for assets, network-first for pages, an offline page, and fonts from a CDN cached
// as they are fetched: the request itself is fetched, never relayed.
const CACHE = 'static-v3';
const FONT_CDN = 'https://fonts.cdn.example/';
const OFFLINE = '/offline.html';

self.addEventListener('install', (event) => {
  event.waitUntil(caches.open(CACHE).then((c) => c.addAll([OFFLINE, '/app.css', '/app.js'])));
});

self.addEventListener('fetch', (event) => {
  const req = event.request;
  if (req.mode === 'navigate') {
    event.respondWith(fetch(req).catch(() => caches.match(OFFLINE)));
    return;
  }
  if (req.url.startsWith(FONT_CDN)) {
    event.respondWith(
      caches.match(req).then(
        (hit) =>
          hit ||
          fetch(req).then((res) => {
            const copy = res.clone();
            caches.open(CACHE).then((c) => c.put(req, copy));
            return res;
          }),
      ),
    );
    return;
  }
  if (new URL(req.url).pathname === '/old-home') event.respondWith(Response.redirect('/', 301));
});
