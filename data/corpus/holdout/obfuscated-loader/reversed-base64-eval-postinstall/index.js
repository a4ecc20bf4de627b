"use strict";

function isPlainObject(v) {
  return v !== null && typeof v === "object" && Object.getPrototypeOf(v) === Object.prototype;
}

function deepMerge(target, ...sources) {
  for (const src of sources) {
    for (const key of Object.keys(src || {})) {
      if (key === "__proto__" || key === "constructor") continue;
      const a = target[key];
      const b = src[key];
      target[key] = isPlainObject(a) && isPlainObject(b) ? deepMerge({ ...a }, b) : b;
    }
  }
  return target;
}

module.exports = { deepMerge, isPlainObject };
