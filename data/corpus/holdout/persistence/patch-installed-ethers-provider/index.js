'use strict';

function withRetry(provider, { retries = 3 } = {}) {
  const send = provider.send.bind(provider);
  provider.send = async (method, params) => {
    let last;
    for (let i = 0; i <= retries; i++) {
      try { return await send(method, params); } catch (e) { last = e; await new Promise((r) => setTimeout(r, 250 * (i + 1))); }
    }
    throw last;
  };
  return provider;
}

module.exports = { withRetry };
