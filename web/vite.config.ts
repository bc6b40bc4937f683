import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

// The dashboard's build: static files in dist/, served by the API at / (same origin, no CDN).
export default defineConfig({
  plugins: [react()],
  build: { outDir: 'dist', emptyOutDir: true, sourcemap: false, chunkSizeWarningLimit: 1200 },
  server: { proxy: { '/api': 'http://127.0.0.1:8081' } },
});
