// Feature detection as utility libraries do: nothing native is shipped.
var freeProcess = typeof process == 'object' && process;
var nodeUtil = (function () {
  try {
    var types = freeProcess && freeProcess.binding && freeProcess.binding('util');
    return types;
  } catch (e) {}
})();
module.exports = nodeUtil;
