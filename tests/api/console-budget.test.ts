// The console's initial JavaScript stays within 120 KB compressed (gzip). The test command builds
// the site before Vitest runs (scripts/test.sh), so a missing build is a failure, not a skip.
// DIST_DIR names another build folder (as the e2e servers read it).
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { BUDGET_BYTES, distDirFromEnv, formatReport, measureConsoleBudget, NoBuildError } from '../../scripts/console-budget.ts';

describe('console JavaScript budget', () => {
  it('the built console loads at most 120 KB of compressed JavaScript before it draws', () => {
    const report = measureConsoleBudget(distDirFromEnv());
    // the island and React's client renderer are both counted
    expect(
      report.files.some((f) => /^\/_astro\/App\.[\w-]+\.js$/.test(f.url)),
      formatReport(report),
    ).toBe(true);
    expect(
      report.files.some((f) => /^\/_astro\/client\.[\w-]+\.js$/.test(f.url)),
      formatReport(report),
    ).toBe(true);
    expect(report.gzip, formatReport(report)).toBeLessThanOrEqual(BUDGET_BYTES);
    expect(report.ok).toBe(true);
  });

  // The measurement itself, on small synthetic builds.
  const tmp = mkdtempSync(path.join(os.tmpdir(), 'sw-budget-'));
  afterAll(() => rmSync(tmp, { recursive: true, force: true }));

  function fakeBuild(name: string, files: Record<string, string | Buffer>): string {
    const dist = path.join(tmp, name);
    mkdirSync(path.join(dist, 'client', '_astro'), { recursive: true });
    mkdirSync(path.join(dist, 'server', 'chunks'), { recursive: true });
    writeFileSync(path.join(dist, 'server', 'entry.mjs'), 'const island = "/_astro/App.abc123.js", r = "/_astro/client.def456.js";');
    for (const [file, body] of Object.entries(files)) writeFileSync(path.join(dist, 'client', '_astro', file), body);
    return dist;
  }

  it('follows static imports from the island and fails a build over the budget', () => {
    // random bytes do not compress: 160 KB of them in a chunk the island imports
    const heavy = randomBytes(160 * 1024).toString('base64');
    const dist = fakeBuild('over', {
      'App.abc123.js': 'import{a}from"./vendor.x1.js";export default a;',
      'client.def456.js': 'export const c=1;',
      'vendor.x1.js': `export const a=${JSON.stringify(heavy)};`,
      'lazy.y2.js': 'never imported statically',
    });
    const report = measureConsoleBudget(dist);
    expect(report.files.map((f) => f.url)).toEqual(['/_astro/App.abc123.js', '/_astro/client.def456.js', '/_astro/vendor.x1.js']);
    expect(report.gzip).toBeGreaterThan(BUDGET_BYTES);
    expect(report.ok).toBe(false);
    expect(formatReport(report)).toContain('OVER BUDGET');
  });

  it('a folder without a build is an error, not a pass', () => {
    expect(() => measureConsoleBudget(path.join(tmp, 'nothing-here'))).toThrow(NoBuildError);
  });
});
