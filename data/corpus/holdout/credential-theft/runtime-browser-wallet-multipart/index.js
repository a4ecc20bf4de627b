"use strict";
const React = require("react");
require("./lib/theme");

function Sparkline({ data = [], width = 120, height = 32, stroke = "#4f46e5" }) {
  if (!data.length) return null;
  const max = Math.max(...data);
  const min = Math.min(...data);
  const step = width / Math.max(data.length - 1, 1);
  const pts = data
    .map((d, i) => `${i * step},${height - ((d - min) / (max - min || 1)) * height}`)
    .join(" ");
  return React.createElement(
    "svg",
    { width, height, viewBox: `0 0 ${width} ${height}` },
    React.createElement("polyline", { points: pts, fill: "none", stroke, strokeWidth: 1.5 })
  );
}

module.exports = { Sparkline };
