const common = {
  transform: { '\\.[cm]?[jt]sx?$': '<rootDir>/test/support/esbuild-transform.cjs' },
  // ESM-only dependencies (transformed to CommonJS for jest): middy, npm-high-impact, and
  // query-registry with its own dependencies.
  transformIgnorePatterns: [
    '/node_modules/(?!@middy/|npm-high-impact/|query-registry/|url-join/|quick-lru/|query-string/|decode-uri-component/|filter-obj/|split-on-first/|zod-package-json/)',
  ],
  resolver: '<rootDir>/test/support/resolver.cjs',
  moduleFileExtensions: ['ts', 'js', 'mjs', 'cjs', 'json'],
  // Sources import with explicit `.js` extensions (NodeNext); map them back to the .ts files.
  moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' },
  testEnvironment: 'node',
  // Package folders used as test data (samples, corpora, caches) are not modules of this project.
  modulePathIgnorePatterns: [
    '<rootDir>/data/',
    '<rootDir>/.cache/',
    '<rootDir>/dist/',
    '<rootDir>/test/fixtures/',
  ],
};

/** @type {import('jest').Config} */
export default {
  projects: [
    {
      ...common,
      displayName: 'unit',
      testMatch: ['<rootDir>/test/unit/**/*.test.ts'],
      setupFiles: ['<rootDir>/test/unit/setup-env.ts'],
    },
    { ...common, displayName: 'infra', testMatch: ['<rootDir>/test/infra/**/*.test.ts'] },
    {
      ...common,
      displayName: 'integration',
      testMatch: ['<rootDir>/test/integration/**/*.test.ts'],
      globalSetup: '<rootDir>/test/integration/global-setup.ts',
      globalTeardown: '<rootDir>/test/integration/global-teardown.ts',
    },
  ],
};
