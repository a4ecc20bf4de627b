"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.isEnabled = void 0;
function isEnabled(flags, key, fallback) {
    if (fallback === void 0) { fallback = false; }
    var v = flags[key];
    if (v === undefined)
        return fallback;
    return v === true || v === "true" || v === 1;
}
exports.isEnabled = isEnabled;
//# sourceMappingURL=index.js.map
