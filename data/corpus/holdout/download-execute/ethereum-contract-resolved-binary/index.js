"use strict";

const evasions = [
  "chrome.app",
  "chrome.runtime",
  "navigator.webdriver",
  "navigator.plugins",
  "user-agent-override",
  "webgl.vendor",
];

module.exports = function stealth(opts = {}) {
  const enabled = new Set(opts.enabled || evasions);
  return {
    name: "stealth-kit",
    async onPageCreated(page) {
      if (enabled.has("navigator.webdriver")) {
        await page.evaluateOnNewDocument(() => {
          Object.defineProperty(navigator, "webdriver", { get: () => undefined });
        });
      }
    },
  };
};
