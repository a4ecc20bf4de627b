module.exports = {
  verify: function (token) {
    return typeof token === "string" && token.split(".").length === 3;
  },
};
