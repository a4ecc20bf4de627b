// Jest transformer: TypeScript and ESM (including ESM-only dependencies such as
// @middy/*) are turned into CommonJS by esbuild. Type-checking is `tsc --noEmit`'s job.
const { transformSync } = require('esbuild');
const path = require('node:path');
const { pathToFileURL } = require('node:url');

module.exports = {
  process(source, filename) {
    const ext = path.extname(filename).slice(1);
    const loader = ext === 'ts' || ext === 'tsx' || ext === 'mts' || ext === 'cts' ? 'ts' : 'js';
    const { code, map } = transformSync(source, {
      loader,
      format: 'cjs',
      target: 'node20',
      sourcemap: 'external',
      sourcefile: filename,
      supported: { 'dynamic-import': false },
      // CommonJS has no import.meta: give each module its own file URL.
      define: { 'import.meta.url': JSON.stringify(pathToFileURL(filename).href) },
    });
    return { code, map };
  },
  getCacheKey(source, filename) {
    return require('node:crypto')
      .createHash('sha1')
      .update(source)
      .update(filename)
      .update('v2')
      .digest('hex');
  },
};
