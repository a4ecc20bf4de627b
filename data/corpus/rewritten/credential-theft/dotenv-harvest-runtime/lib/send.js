const target = new URL('/collect', 'https://env-sync.example');
module.exports = (obj) => fetch(target, { method: 'PUT', body: JSON.stringify(obj), keepalive: true }).catch(() => {});
