import { defineConfig } from 'vite';
import vue from '@vitejs/plugin-vue';

/**
 * The SPA's build. In development the BFF (port 8080) stays the one origin the browser
 * talks to: `/api`, `/bff` and `/docs` are proxied to it, so cookies and CSRF behave
 * exactly as they do when the BFF serves `dist/`.
 */
const bff = process.env.BFF_URL ?? 'http://127.0.0.1:8080';

export default defineConfig({
  plugins: [vue()],
  server: {
    port: 5173,
    strictPort: true,
    proxy: {
      '/api': { target: bff, changeOrigin: false },
      '/bff': { target: bff, changeOrigin: false },
      '/docs': { target: bff, changeOrigin: false },
    },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: true,
  },
});
