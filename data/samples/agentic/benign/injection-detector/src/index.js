const patterns = require('./patterns');

/** Scores a text for prompt injection: the highest weight among matching signatures. */
function scoreInjection(text) {
  const lower = String(text).toLowerCase();
  let score = 0;
  for (const p of patterns) if (lower.includes(p.phrase)) score = Math.max(score, p.weight);
  return { score, isInjection: score >= 0.7 };
}

module.exports = { scoreInjection };
