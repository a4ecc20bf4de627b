// Jest transformer: TypeScript and ESM (including ESM-only dependencies such as
// @middy/*) are turned into CommonJS by esbuild. Type-checking is `tsc --noEmit`'s job.
const { transformSync } = require('esbuild');
const path = require('node:path');
const { pathToFileURL } = require('node:url');

module.exports = {
  process(source, filename, options) {
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
    // esbuild's CommonJS interop helpers (__export, __copyProps, __toCommonJS) sit on the first
    // lines of every module: left to the coverage instrumenter they count as a few branches of
    // each file that no test of the file can take. Same lines, so the source map still holds.
    const instrumented =
      options && options.instrument
        ? code.replace(/^var (__[A-Za-z]+) = \(/gm, 'var $1 = /* istanbul ignore next */ (')
        : code;
    return { code: instrumented, map };
  },
  // Jest keys its transform cache on this alone when a transformer has one, and instruments for
  // coverage after the transform: without the flag in the key, a coverage run reuses code cached
  // uninstrumented by an earlier run (0 % for those files), and the other way round.
  getCacheKey(source, filename, options) {
    return require('node:crypto')
      .createHash('sha1')
      .update(source)
      .update(filename)
      .update(options && options.instrument ? 'instrument' : '')
      .update('v4')
      .digest('hex');
  },
};
