module.exports = {
  extends: ["tslint:recommended"],
  rules: {
    "quotemark": [true, "single", "avoid-escape"],
    "semicolon": [true, "always"],
    "max-line-length": [true, 100],
    "no-console": false,
    "object-literal-sort-keys": false,
    "trailing-comma": [true, { multiline: "always", singleline: "never" }],
  },
};
