"use strict";

module.exports = function debounce(fn, wait = 100) {
  let timer = null;
  let pending = null;
  let resolveFn, rejectFn;
  return function (...args) {
    clearTimeout(timer);
    if (!pending) {
      pending = new Promise((res, rej) => {
        resolveFn = res;
        rejectFn = rej;
      });
    }
    timer = setTimeout(async () => {
      const p = pending;
      pending = null;
      try {
        resolveFn(await fn.apply(this, args));
      } catch (e) {
        rejectFn(e);
      }
      return p;
    }, wait);
    return pending;
  };
};
