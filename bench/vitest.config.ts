import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    name: 'bench',
    include: ['**/*.test.ts'],
    exclude: ['**/node_modules/**', '**/dist/**', '.results/**'],
    environment: 'node',
    // layersOff.test.ts starts a PostgreSQL cluster and two APIs.
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});
