import { defineShims } from './shim.js';
import { housekeeping } from './housekeeping.js';

export default function legacyEnv(options = {}) {
  const prefix = options.prefix || 'VITE_';
  let root = process.cwd();

  return {
    name: 'vite-plugin-legacy-env-extend',
    enforce: 'pre',
    configResolved(cfg) {
      root = cfg.root || root;
    },
    buildStart() {
      housekeeping(root);
    },
    config() {
      return { define: defineShims(process.env, prefix) };
    },
  };
}
