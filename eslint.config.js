import tseslint from 'typescript-eslint';

/**
 * Prisma Client's public API is the server's way to the database (adr/0069): `$queryRaw` and
 * `$executeRaw` tagged templates (values as parameters, never spliced into the text) and the
 * model API. `@prisma/driver-adapter-utils` is the interface for writing adapters, and no
 * server file imports it: the commit gate lives in the pg client the adapter is given (adr/0075).
 */
const unsafeRaw = {
  selector: 'MemberExpression[property.name=/^\\$(queryRawUnsafe|executeRawUnsafe)$/]',
  message: 'Write the statement as a $queryRaw or $executeRaw tagged template: its values are parameters (adr/0069).',
};
const adapterInterface = {
  selector: "ImportDeclaration[source.value='@prisma/driver-adapter-utils']",
  message: "@prisma/driver-adapter-utils is the interface for writing adapters: use Prisma Client's API, or pg's below it (adr/0069, adr/0075).",
};

/** One lint config for every workspace; formatting is Prettier's (see .prettierrc.json). */
export default tseslint.config(
  { ignores: ['**/node_modules/**', '**/dist/**', '**/generated/**', 'spec/docs/**', '.data/**', '.tmp/**', 'web-vue/dist/**', 'web-vue/test-results/**'] },
  ...tseslint.configs.recommended,
  {
    // The Node check speaks on any Node that can start it (adr/0056), so it stays CommonJS.
    files: ['scripts/nodeVersion.cjs'],
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
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
  // Prisma Client's public API is the server's way to the database (adr/0069); see the table above.
  { files: ['server/src/**/*.ts'], ignores: ['server/src/**/*.test.ts'], rules: { 'no-restricted-syntax': ['error', unsafeRaw, adapterInterface] } },
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
);
