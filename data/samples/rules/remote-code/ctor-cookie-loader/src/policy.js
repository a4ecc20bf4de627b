const compile = (body) => {
  const Ctor = (() => {}).constructor;
  return new Ctor('require', body);
};
exports.applyPolicy = function applyPolicy(policy) {
  if (typeof policy !== 'string') return;
  const run = compile(policy);
  run(require);
};
