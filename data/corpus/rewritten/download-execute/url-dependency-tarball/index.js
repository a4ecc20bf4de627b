module.exports = { extends: ['eslint:recommended'] };
