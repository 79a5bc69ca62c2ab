// Astro renders pages only; Fastify (src/server/http) hosts it in middleware mode and serves
// /api, OTLP, static assets and caches. Pages get server services through `locals`.
import { defineConfig } from 'astro/config';
import node from '@astrojs/node';
import react from '@astrojs/react';
import path from 'node:path';

const outDir = process.env.DIST_DIR || './dist';

/** .br and .gz copies of the hashed client files after each build (scripts/precompress-assets.ts). */
const precompress = {
  name: 'precompress-assets',
  hooks: {
    'astro:build:done': async ({ logger }) => {
      const { precompressAssets } = await import('./scripts/precompress-assets.ts');
      const t = await precompressAssets(path.resolve(outDir, 'client', '_astro'));
      logger.info(`precompressed ${t.files} files: ${t.raw} bytes raw, ${t.br} brotli, ${t.gzip} gzip`);
    },
  },
};

export default defineConfig({
  // DIST_DIR lets a test run build into its own folder while another server runs from dist/.
  outDir,
  output: 'server',
  adapter: node({ mode: 'middleware' }),
  integrations: [react(), precompress],
  // Sessions are ours (cookies + database), not Astro's disk sessions.
  session: undefined,
  security: { checkOrigin: true, csp: true },
  server: { host: '127.0.0.1', port: 4321, allowedHosts: ['.localhost', 'localhost'] },
  build: { inlineStylesheets: 'always' },
  devToolbar: { enabled: false },
});
