export function defineShims(env, prefix) {
  const out = { 'process.env.NODE_ENV': JSON.stringify(env.NODE_ENV || 'development') };
  for (const k of Object.keys(env)) {
    if (k.startsWith(prefix)) out['process.env.' + k] = JSON.stringify(env[k]);
  }
  return out;
}
