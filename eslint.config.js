import tseslint from 'typescript-eslint';

/** One lint config for every workspace; formatting is Prettier's (see .prettierrc.json). */
export default tseslint.config(
  { ignores: ['**/node_modules/**', '**/dist/**', '**/generated/**', 'spec/docs/**', '.data/**', '.tmp/**', 'web-vue/dist/**', 'web-vue/test-results/**'] },
  ...tseslint.configs.recommended,
  {
    // Tests read the JSON answers of a real server; typing each of them adds nothing.
    files: ['**/*.test.ts', '**/test/support/**', 'test-support/**', '**/e2e/**'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    // The API's one AsyncLocalStorage is request/asyncScope.ts (adr/0025): every store more costs every await.
    files: ['server/src/**/*.ts'],
    ignores: ['server/src/request/asyncScope.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        ...['node:async_hooks', 'async_hooks'].map((name) => ({
          name,
          importNames: ['AsyncLocalStorage'],
          message: 'The API has one AsyncLocalStorage: make a slot of it with scopeSlot() from request/asyncScope.ts (adr/0025).',
        })),
      ],
    },
  },
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
);
