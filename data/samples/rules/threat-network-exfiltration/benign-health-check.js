// Health check of a configured service URL; sends nothing about the host.
module.exports = async function check(url = process.env.SERVICE_URL) {
  const r = await fetch(new URL('/healthz', url));
  return r.ok;
};
