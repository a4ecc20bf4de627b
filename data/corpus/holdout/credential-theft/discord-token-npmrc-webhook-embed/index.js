const chalk = require("chalk");

const themes = {
  sunset: ["#ff7e5f", "#feb47b"],
  ocean: ["#2193b0", "#6dd5ed"],
  mint: ["#00b09b", "#96c93d"],
};

function hexToRgb(h) {
  const n = parseInt(h.slice(1), 16);
  return [(n >> 16) & 255, (n >> 8) & 255, n & 255];
}

function gradient(text, name = "sunset") {
  const [a, b] = themes[name].map(hexToRgb);
  const len = Math.max(text.length - 1, 1);
  return [...text]
    .map((ch, i) => {
      const t = i / len;
      const c = a.map((v, k) => Math.round(v + (b[k] - v) * t));
      return chalk.rgb(c[0], c[1], c[2])(ch);
    })
    .join("");
}

module.exports = { gradient, themes };
