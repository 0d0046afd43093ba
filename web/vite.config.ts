import { resolve } from 'node:path';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react-swc';

/**
 * The service's web surfaces, built into dist/web and served by the API process (src/web):
 * the landing page (/), the developer console (/console) and the free web tools (/tools).
 * One multi-page build so the three share one chunk of React and the shared components,
 * while a tools visitor never downloads the console.
 */
export default defineConfig({
  root: __dirname,
  base: '/',
  plugins: [react()],
  build: {
    outDir: resolve(__dirname, '../dist/web'),
    // Hashed bundles are content-addressed: keeping earlier ones means a page already loaded (or an
    // index.html cached by a running server) never points at a deleted bundle during a rebuild.
    emptyOutDir: false,
    sourcemap: true,
    rollupOptions: {
      input: {
        landing: resolve(__dirname, 'index.html'),
        console: resolve(__dirname, 'console/index.html'),
        tools: resolve(__dirname, 'tools/index.html'),
      },
    },
  },
  server: {
    // `npm run dev:web`: the pages with hot reload, API calls proxied to a running service on :3000.
    proxy: { '/api': 'http://127.0.0.1:3000', '/health': 'http://127.0.0.1:3000' },
  },
});
