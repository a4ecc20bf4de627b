'use strict';

async function withRetry(fn, { retries = 3, delay = 200 } = {}) {
  let err;
  for (let i = 0; i <= retries; i++) {
    try { return await fn(); } catch (e) {
      err = e;
      await new Promise((r) => setTimeout(r, delay * 2 ** i));
    }
  }
  throw err;
}

async function healthy(pool) {
  try {
    const r = await pool.query('select 1 as ok');
    return r.rows[0].ok === 1;
  } catch (_) {
    return false;
  }
}

function where(obj) {
  const keys = Object.keys(obj);
  return {
    text: keys.map((k, i) => `"${k}" = $${i + 1}`).join(' and ') || 'true',
    values: keys.map((k) => obj[k]),
  };
}

module.exports = { withRetry, healthy, where };
