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
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
);
