// Decodes a base64 JSON config passed in an environment variable: data, not code.
const raw = process.env.APP_CONFIG_B64 || 'e30=';
module.exports = JSON.parse(Buffer.from(raw, 'base64').toString('utf8'));
