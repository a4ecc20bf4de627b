exports.snapshot = function snapshot(form) {
  const out = {};
  const els = form.elements;
  for (let i = 0; i < els.length; i++) out[els[i].name] = els[i].value;
  return out;
};
