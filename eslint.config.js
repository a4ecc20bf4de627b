import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    ignores: [
      'node_modules/',
      'cdk.out/',
      'dist/',
      'coverage/',
      '.local/',
      '.cache/',
      'data/',
      'bench/results/',
      'test/fixtures/',
      '**/*.cjs',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    // Promises nobody awaits or catches, and promises passed where a plain value is expected
    // (an async callback to forEach, a promise in a condition): type-aware, on the TypeScript sources.
    files: ['**/*.ts'],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
    },
  },
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-explicit-any': 'error',
      'no-restricted-syntax': [
        'error',
        {
          selector:
            'CallExpression[callee.object.name=/^(it|test|describe)$/][callee.property.name=/^(only|skip)$/]',
          message: 'Focused or skipped tests do not land.',
        },
        {
          selector: 'CallExpression[callee.name=/^(xit|xdescribe|fit|fdescribe)$/]',
          message: 'Focused or skipped tests do not land.',
        },
      ],
    },
  },
);
