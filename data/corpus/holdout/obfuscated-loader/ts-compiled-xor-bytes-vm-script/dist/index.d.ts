export declare function cacheKey(files: string[], compilerOptions: Record<string, unknown>): string;
