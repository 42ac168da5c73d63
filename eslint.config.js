import tseslint from 'typescript-eslint';

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
  {
    // One SQL style (adr/0055): the server's statements are SQL through sqlOf (data/statements.ts); tests may set up with Prisma.
    files: ['server/src/**/*.ts'],
    ignores: ['server/src/**/*.test.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: 'MemberExpression[property.name=/^\\$(queryRaw|executeRaw|queryRawUnsafe|executeRawUnsafe)$/]',
          message: 'Write the statement with sqlOf(client).query or .execute (data/statements.ts, adr/0055).',
        },
        {
          selector:
            'CallExpression > MemberExpression.callee[object.property.name=/^(user|refreshToken|account|ledgerEntry|idempotencyRecord|auditRow|stepUpAuthorization|readYourWritesMark|signInFailure|payeeLookup|signUpAttempt|knownDevice)$/]',
          message: "Prisma's model API is not the server's SQL style: write the statement with sqlOf (data/statements.ts, adr/0055).",
        },
      ],
    },
  },
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
);
