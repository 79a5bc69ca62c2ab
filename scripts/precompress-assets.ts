// Brotli (quality 11) and gzip (level 9) copies of the built client's hashed files (/_astro: the
// console's scripts, styles, icons) beside the originals (x.js -> x.js.br, x.js.gz), which
// @fastify/static serves by Accept-Encoding (preCompressed, http/astro.ts). The other client
// files are few and small, and the landing page is served compressed from memory. Run after every `astro build` by the integration in astro.config.mjs, so each
// path that builds (npm run build, scripts/test.sh, CI, DIST_DIR builds) gets them; also runnable
// by hand: node scripts/precompress-assets.ts [dist/client/_astro]
import { readFile, readdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';

const brotliAsync = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/** Text formats; images and fonts (woff2, png) are compressed already. */
const COMPRESSIBLE = /\.(js|mjs|css|html|svg|json|txt|xml|webmanifest|map)$/;
/** Below this a compressed copy saves less than its headers cost. */
export const MIN_PRECOMPRESS_BYTES = 1024;

/** Writes the copies for every compressible file under dir; a copy not at least 10 % smaller is not written. */
export async function precompressAssets(dir: string): Promise<{ files: number; raw: number; br: number; gzip: number }> {
  const totals = { files: 0, raw: 0, br: 0, gzip: 0 };
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  await Promise.all(
    entries
      .filter((e) => e.isFile() && COMPRESSIBLE.test(e.name))
      .map(async (e) => {
        const file = path.join(e.parentPath, e.name);
        const raw = await readFile(file);
        if (raw.length < MIN_PRECOMPRESS_BYTES) return;
        const [br, gz] = await Promise.all([
          brotliAsync(raw, { params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: raw.length } }),
          gzipAsync(raw, { level: 9 }),
        ]);
        totals.files++;
        totals.raw += raw.length;
        if (br.length < raw.length * 0.9) {
          await writeFile(`${file}.br`, br);
          totals.br += br.length;
        }
        if (gz.length < raw.length * 0.9) {
          await writeFile(`${file}.gz`, gz);
          totals.gzip += gz.length;
        }
      }),
  );
  return totals;
}

if (import.meta.main) {
  const dir = path.resolve(process.argv[2] ?? path.join(process.env.DIST_DIR ?? 'dist', 'client', '_astro'));
  const t = await precompressAssets(dir);
  console.log(`precompressed ${t.files} files in ${dir}: ${t.raw} bytes raw, ${t.br} brotli, ${t.gzip} gzip`);
}
