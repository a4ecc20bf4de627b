// Reports bidirectional control characters (Trojan Source, CVE-2021-42574).
const BIDI = /[\u202A-\u202E\u2066-\u2069]/;
module.exports = {
  rules: {
    'no-bidi': {
      create: (ctx) => ({
        Program(node) {
          const text = ctx.getSourceCode().getText();
          if (BIDI.test(text)) ctx.report({ node, message: 'Bidirectional control character.' });
        },
      }),
    },
  },
};
