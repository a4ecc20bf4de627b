// @middy/* packages and zod-package-json (under query-registry) export only an `import` condition;
// Jest resolves with `require`. Add the `import` condition for them (the transformer turns their
// ESM into CommonJS).
module.exports = (request, options) => {
  if (
    request.startsWith('@middy/') ||
    request === 'zod-package-json' ||
    request.startsWith('zod-package-json/')
  ) {
    return options.defaultResolver(request, {
      ...options,
      conditions: ['import', 'node', 'default'],
    });
  }
  return options.defaultResolver(request, options);
};
