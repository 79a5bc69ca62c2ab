// Browser journeys of bench/synthetic (issue 29 targets): a 5-step journey in the real Chromium
// (Debian's) against the loopback shop (in another process), through the browser queue at
// BROWSER_CONCURRENCY 1 and 2: wall time and CPU per run (this process plus Chromium's
// processes, read from /proc), runs a minute, and memory (the Chromium processes' summed RSS:
// its peak while the runs go, and the peak less the browser's idle RSS, per run in flight).
import os from 'node:os';
import { closeSharedBrowser, sharedBrowser } from '../../src/server/engine/checkers/browser/launch.ts';
import { configureBrowser } from '../../src/server/engine/checkers/browser/settings.ts';
import type { BrowserStep } from '../../src/server/engine/checkers/browser/steps.ts';
import { runChecker } from '../../src/server/engine/checkers/run.ts';
import { DEFAULT_LIMITS } from '../../src/server/engine/checkers/types.ts';
import { KINDS } from '../../src/server/engine/kinds/index.ts';
import { dnsResolver } from '../../src/server/net/dns-lookup.ts';
import { SHOP_EMAIL, SHOP_PASSWORD } from '../../tests/support/kind-servers/shop.ts';
import { pct } from './flows.ts';
import { descendants, sampleDescendants } from './proc-tree.ts';

const fmt = (n: number, d = 1) => (Number.isFinite(n) ? n.toFixed(d) : 'n/a');
const MiB = 1024 * 1024;

/** Sign in with the password from a company secret: five steps, two page loads and a form post. */
const journey = (base: string): BrowserStep[] => [
  { action: 'goto', name: 'Open sign-in', url: `${base}/login` },
  { action: 'fill', selector: '#email', value: SHOP_EMAIL },
  { action: 'fill', selector: '#password', value: '{{secrets.SHOP_PASSWORD}}' },
  { action: 'click', name: 'Sign in', selector: 'button[type=submit]' },
  { action: 'assert_text', name: 'Signed in', selector: '#user', value: SHOP_EMAIL },
];

export async function browserRuns(port: number, runs: number, concurrency: number): Promise<string[]> {
  configureBrowser({ concurrency });
  const steps = journey(`http://127.0.0.1:${port}`);
  const { config, problems } = KINDS.browser.validate((k) => ({ steps })[k as 'steps'] as never, { allowPrivate: true });
  if (Object.keys(problems).length) throw new Error(`bench journey invalid: ${JSON.stringify(problems)}`);
  const env = {
    now: () => Date.now(),
    allowPrivateTargets: true as const,
    resolve: dnsResolver(),
    limits: DEFAULT_LIMITS,
    secrets: async () => ({ SHOP_PASSWORD }),
  };
  const one = (i: number) =>
    runChecker(
      KINDS.browser.check,
      { id: `bench-${i}`, type: 'browser', config, timeoutMs: 30_000, lastPushAt: null, intervalMs: 300_000, createdAt: 0 },
      env,
      new AbortController(),
      (e) => {
        throw e;
      },
    );
  // the browser up and a first run done (compiled, fonts cached), then the idle browser's RSS
  await sharedBrowser();
  await one(0);
  await new Promise((r) => setTimeout(r, 1000));
  const idleRss = descendants().reduce((s, p) => s + p.rss, 0);
  const statuses: Record<string, number> = {};
  let firstError: string | null = null;
  const walls: number[] = [];
  const sampler = sampleDescendants(50);
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  // all queued at once, `concurrency` at a time by the queue: the wall of a run includes no wait
  await Promise.all(
    Array.from({ length: runs }, async (_, i) => {
      const o = await one(i + 1);
      walls.push(o.timings?.total ?? Number.NaN);
      statuses[o.status] = (statuses[o.status] ?? 0) + 1;
      if (o.status !== 'operational') firstError ??= o.error;
    }),
  );
  const wall = (performance.now() - t0) / 1000;
  const own = process.cpuUsage(cpu0);
  const chromium = sampler.stop();
  const cpuMs = (own.user + own.system) / 1000 + chromium.cpuMs;
  return [
    `browser: ${runs} runs of a ${steps.length}-step journey (sign in at the loopback shop), BROWSER_CONCURRENCY ${concurrency}; load ${os.loadavg()[0].toFixed(1)} on ${os.cpus().length} cores`,
    `  runs a minute       ${fmt((runs / wall) * 60)}`,
    `  wall per run        p50 ${fmt(pct(walls, 50), 0)} ms, p99 ${fmt(pct(walls, 99), 0)} ms (in its slot, without the queue's wait)`,
    `  CPU per run         ${fmt(cpuMs / runs, 0)} ms (this process ${fmt((own.user + own.system) / 1000 / runs, 0)} ms, Chromium ${fmt(chromium.cpuMs / runs, 0)} ms)`,
    `  memory              Chromium's processes: idle ${fmt(idleRss / MiB, 0)} MiB, peak ${fmt(chromium.peakRss / MiB, 0)} MiB; ${fmt((chromium.peakRss - idleRss) / MiB / concurrency, 0)} MiB a run in flight above idle`,
    `  statuses            ${Object.entries(statuses)
      .map(([s, n]) => `${n} ${s}`)
      .join(', ')}${firstError ? `; first error: ${firstError}` : ''}`,
  ];
}

export const closeBrowser = closeSharedBrowser;
