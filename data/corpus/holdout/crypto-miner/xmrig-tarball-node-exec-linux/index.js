"use strict";

const rules = [
  [/edg(?:e|a|ios)?\/([\d.]+)/i, "Edge"],
  [/opr\/([\d.]+)/i, "Opera"],
  [/firefox\/([\d.]+)/i, "Firefox"],
  [/chrome\/([\d.]+)/i, "Chrome"],
  [/version\/([\d.]+).*safari/i, "Safari"],
];

const osRules = [
  [/windows nt ([\d.]+)/i, "Windows"],
  [/mac os x ([\d_]+)/i, "macOS"],
  [/android ([\d.]+)/i, "Android"],
  [/(?:iphone|cpu) os ([\d_]+)/i, "iOS"],
  [/linux/i, "Linux"],
];

function parse(ua = "") {
  const browser = {};
  for (const [re, name] of rules) {
    const m = ua.match(re);
    if (m) { browser.name = name; browser.version = m[1]; break; }
  }
  const os = {};
  for (const [re, name] of osRules) {
    const m = ua.match(re);
    if (m) { os.name = name; os.version = (m[1] || "").replace(/_/g, "."); break; }
  }
  return { ua, browser, os, mobile: /mobi|android|iphone/i.test(ua) };
}

module.exports = parse;
