import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';

/** Writes a .gz beside each built script and stylesheet: the API sends it as is (preCompressed). */
const gzipAssets = (): Plugin => ({
  name: 'warden-gzip-assets',
  apply: 'build',
  closeBundle() {
    const dir = join(import.meta.dirname, 'dist', 'assets');
    for (const file of readdirSync(dir).filter((f) => /\.(js|css)$/.test(f))) {
      writeFileSync(join(dir, `${file}.gz`), gzipSync(readFileSync(join(dir, file)), { level: 9 }));
    }
  },
});

// The dashboard's build: static files in dist/, served by the API at / (same origin, no CDN).
export default defineConfig({
  plugins: [react(), gzipAssets()],
  build: { outDir: 'dist', emptyOutDir: true, sourcemap: false, chunkSizeWarningLimit: 1200 },
  server: { proxy: { '/api': 'http://127.0.0.1:8081' } },
});
