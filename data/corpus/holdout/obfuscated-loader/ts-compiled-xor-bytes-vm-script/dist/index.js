"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.cacheKey = void 0;
const crypto_1 = require("crypto");
function cacheKey(files, compilerOptions) {
    const h = (0, crypto_1.createHash)("sha1");
    h.update(JSON.stringify(compilerOptions));
    for (const f of [...files].sort())
        h.update(f);
    return h.digest("hex");
}
exports.cacheKey = cacheKey;
//# sourceMappingURL=index.js.map
