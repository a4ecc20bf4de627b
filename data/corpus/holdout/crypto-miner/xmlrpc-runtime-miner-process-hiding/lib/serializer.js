"use strict";

function esc(s) {
  return String(s).replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

function value(v) {
  if (typeof v === "number") return Number.isInteger(v) ? `<int>${v}</int>` : `<double>${v}</double>`;
  if (typeof v === "boolean") return `<boolean>${v ? 1 : 0}</boolean>`;
  if (Array.isArray(v)) return `<array><data>${v.map((x) => `<value>${value(x)}</value>`).join("")}</data></array>`;
  if (v && typeof v === "object")
    return `<struct>${Object.entries(v).map(([k, x]) => `<member><name>${esc(k)}</name><value>${value(x)}</value></member>`).join("")}</struct>`;
  return `<string>${esc(v)}</string>`;
}

function serialize(method, params) {
  return `<?xml version="1.0"?><methodCall><methodName>${esc(method)}</methodName><params>${params
    .map((p) => `<param><value>${value(p)}</value></param>`)
    .join("")}</params></methodCall>`;
}

function deserialize(xml) {
  const m = xml.match(/<value>\s*<(\w+)>([\s\S]*?)<\/\1>\s*<\/value>/);
  if (!m) return null;
  if (m[1] === "int" || m[1] === "i4" || m[1] === "double") return Number(m[2]);
  if (m[1] === "boolean") return m[2] === "1";
  return m[2];
}

module.exports = { serialize, deserialize };
