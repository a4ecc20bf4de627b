// A template engine compiling templates into functions, as template libraries do.
module.exports = function compile(tpl) {
  const body = 'return ' + JSON.stringify(tpl).replace(/\{\{\s*(\w+)\s*\}\}/g, '" + (data.$1 ?? "") + "') + ';';
  return new Function('data', body);
};
