import { defineConfig } from 'vitest/config';
import vue from '@vitejs/plugin-vue';

/** Unit and component tests beside the code; the DOM is happy-dom. Playwright owns `e2e/`. */
export default defineConfig({
  plugins: [vue()],
  test: {
    name: 'web-vue',
    environment: 'happy-dom',
    include: ['src/**/*.test.ts'],
    exclude: ['**/node_modules/**', '**/dist/**', 'e2e/**'],
    restoreMocks: true,
  },
});
