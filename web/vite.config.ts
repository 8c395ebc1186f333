// The web app is built into web/dist and served by the API process (src/plugins/web.ts).
// It imports the chart option builder from src/adapters/charts, so the root is the project.
import { defineConfig, type Plugin } from 'vite';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { fileURLToPath } from 'node:url';

// Brotli and gzip copies next to each asset, served as they are by @fastify/static (preCompressed),
// so the API process never compresses the app on the fly.
function precompress(): Plugin {
  return {
    name: 'precompress',
    apply: 'build',
    writeBundle(options, bundle) {
      for (const file of Object.keys(bundle)) {
        if (!/\.(js|css|ttf|svg)$/.test(file)) continue;
        const full = path.join(options.dir!, file);
        const data = fs.readFileSync(full);
        fs.writeFileSync(full + '.br', zlib.brotliCompressSync(data, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11 } }));
        fs.writeFileSync(full + '.gz', zlib.gzipSync(data, { level: 9 }));
      }
    },
  };
}

export default defineConfig({
  plugins: [precompress()],
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: '/',
  oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2022',
    // The fonts charts are drawn with are files, never inlined into the JS.
    assetsInlineLimit: 0,
    reportCompressedSize: false,
    // ECharts is a chunk of its own (lazy.ts, about 216 KB gzipped); the budget of 300 KB gzipped
    // for the first page is checked by test/web/app.test.ts.
    chunkSizeWarningLimit: 800,
    // Two entries: the app (index.html) and the embedded pages (src/embed/main.tsx), which share the
    // widget components and the ECharts chunk. The server builds the embedded page's HTML itself
    // (src/plugins/embed-pages.ts) and finds that entry's files in the manifest.
    manifest: true,
    rolldownOptions: {
      input: {
        app: fileURLToPath(new URL('index.html', import.meta.url)),
        embed: fileURLToPath(new URL('src/embed/main.tsx', import.meta.url)),
      },
    },
  },
  server: { proxy: { '/api': 'http://127.0.0.1:8080' }, fs: { allow: ['..'] } },
});
