// The console's initial JavaScript (what a console page loads before it can draw), gzip- and
// brotli-compressed, against the 120 KB budget. Reads a built site: DIST_DIR or ./dist.
// Usage: npm run build && node scripts/console-budget.ts   (exits 1 when over budget, 2 without a build)
// tests/api/console-budget.test.ts runs the same measurement after the test command's build.
import { readFileSync, readdirSync, existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, gzipSync, constants } from 'node:zlib';

export const BUDGET_BYTES = 120 * 1024;

export interface BudgetFile {
  url: string;
  raw: number;
  gzip: number;
  brotli: number;
}

export interface BudgetReport {
  files: BudgetFile[];
  raw: number;
  gzip: number;
  brotli: number;
  budget: number;
  /** gzip total within the budget */
  ok: boolean;
}

export class NoBuildError extends Error {}

export function distDirFromEnv(): string {
  return path.resolve(process.env.DIST_DIR ?? 'dist');
}

/** Measures a built site; throws NoBuildError when there is none (or no console island in it). */
export function measureConsoleBudget(dist: string = distDirFromEnv()): BudgetReport {
  const client = path.join(dist, 'client');
  const chunks = path.join(dist, 'server', 'chunks');
  if (!existsSync(client) || !existsSync(chunks))
    throw new NoBuildError(`No build in ${dist}: run \`astro build\` first (DIST_DIR=${dist}).`);

  // The console island is src/islands/console/App.tsx (built as /_astro/App.<hash>.js) and React's
  // client renderer (/_astro/client.<hash>.js); the server build names both.
  const serverCode = [path.join(dist, 'server', 'entry.mjs'), ...readdirSync(chunks).map((f) => path.join(chunks, f))]
    .filter((f) => f.endsWith('.mjs') && existsSync(f))
    .map((f) => readFileSync(f, 'utf8'))
    .join('\n');
  const entries = [...new Set([...serverCode.matchAll(/\/_astro\/(?:App|client)\.[\w-]+\.js/g)].map((m) => m[0]))];
  if (entries.length === 0) throw new NoBuildError(`Could not find the console island in the build in ${dist}.`);

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

  const files = [...seen].sort().map((url): BudgetFile => {
    const buf = readFileSync(path.join(client, url));
    return {
      url,
      raw: buf.length,
      gzip: gzipSync(buf, { level: 9 }).length,
      brotli: brotliCompressSync(buf, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length,
    };
  });
  const sum = (k: 'raw' | 'gzip' | 'brotli') => files.reduce((n, f) => n + f[k], 0);
  const gzip = sum('gzip');
  return { files, raw: sum('raw'), gzip, brotli: sum('brotli'), budget: BUDGET_BYTES, ok: gzip <= BUDGET_BYTES };
}

const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;

export function formatReport(r: BudgetReport): string {
  const rows = r.files.map(
    (f) =>
      `  ${f.url.padEnd(40)} ${(f.raw / 1024).toFixed(1).padStart(7)} KB raw ${(f.gzip / 1024).toFixed(1).padStart(6)} KB gzip ${(f.brotli / 1024).toFixed(1).padStart(6)} KB brotli`,
  );
  return [
    `Console initial JavaScript (${r.files.length} files):`,
    ...rows,
    `Total: ${kb(r.raw)} raw, ${kb(r.gzip)} gzip, ${kb(r.brotli)} brotli; budget ${kb(r.budget)} compressed (gzip): ${r.ok ? 'OK' : 'OVER BUDGET'}`,
  ].join('\n');
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    const report = measureConsoleBudget();
    console.log(formatReport(report));
    process.exit(report.ok ? 0 : 1);
  } catch (e) {
    if (!(e instanceof NoBuildError)) throw e;
    console.error(e.message);
    process.exit(2);
  }
}
