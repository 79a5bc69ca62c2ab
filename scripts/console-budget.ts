// Prints the console's initial JavaScript (what a console page loads before it can draw), gzip-
// and brotli-compressed, against the 150 KB budget. Reads a built site: DIST_DIR or ./dist.
// Usage: npm run build && node scripts/console-budget.ts   (exits 1 when over budget)
import { readFileSync, readdirSync, existsSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, gzipSync, constants } from 'node:zlib';

const BUDGET_BYTES = 150 * 1024;
const dist = path.resolve(process.env.DIST_DIR ?? 'dist');
const client = path.join(dist, 'client');
const chunks = path.join(dist, 'server', 'chunks');
if (!existsSync(client)) {
  console.error(`No build in ${dist}: run \`astro build\` first (DIST_DIR=${dist}).`);
  process.exit(2);
}

// The console island is src/islands/console/App.tsx (built as /_astro/App.<hash>.js) and React's
// client renderer (/_astro/client.<hash>.js); the server build names both.
const serverCode = [path.join(dist, 'server', 'entry.mjs'), ...readdirSync(chunks).map((f) => path.join(chunks, f))]
  .filter((f) => f.endsWith('.mjs') && existsSync(f))
  .map((f) => readFileSync(f, 'utf8'))
  .join('\n');
const entries = [...new Set([...serverCode.matchAll(/\/_astro\/(?:App|client)\.[\w-]+\.js/g)].map((m) => m[0]))];
if (entries.length === 0) {
  console.error('Could not find the console island in the build.');
  process.exit(2);
}

// Follow static imports from the entries: that is what loads before the app renders.
const seen = new Set<string>();
const queue = [...entries];
while (queue.length) {
  const url = queue.shift()!;
  if (seen.has(url)) continue;
  seen.add(url);
  const code = readFileSync(path.join(client, url), 'utf8');
  for (const m of code.matchAll(/(?:import|export)\s*(?:[\w*{}\s,$]+from\s*)?["']\.\/([\w.-]+\.js)["']/g)) queue.push(`/_astro/${m[1]}`);
}

let raw = 0;
let gz = 0;
let br = 0;
const rows: string[] = [];
for (const url of [...seen].sort()) {
  const buf = readFileSync(path.join(client, url));
  const g = gzipSync(buf, { level: 9 }).length;
  const b = brotliCompressSync(buf, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length;
  raw += buf.length;
  gz += g;
  br += b;
  rows.push(`  ${url.padEnd(40)} ${(buf.length / 1024).toFixed(1).padStart(7)} KB raw ${(g / 1024).toFixed(1).padStart(6)} KB gzip ${(b / 1024).toFixed(1).padStart(6)} KB brotli`);
}
const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;
console.log(`Console initial JavaScript (${seen.size} files):`);
console.log(rows.join('\n'));
console.log(`Total: ${kb(raw)} raw, ${kb(gz)} gzip, ${kb(br)} brotli; budget ${kb(BUDGET_BYTES)} compressed (gzip): ${gz <= BUDGET_BYTES ? 'OK' : 'OVER BUDGET'}`);
process.exit(gz <= BUDGET_BYTES ? 0 : 1);
