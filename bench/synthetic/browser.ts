// Browser benchmark (issue 29): a 5-step journey (open sign-in, fill email, fill the password
// from a company secret, click Sign in, assert the signed-in name) in the real Chromium against
// the loopback shop in another process, through the engine's runChecker and the browser queue.
// For BROWSER_CONCURRENCY 1 and 2: --runs (20) journeys queued at once; prints runs per minute,
// each run's wall time (median), CPU per run of this process and of Chromium (all its processes,
// from /proc), and Chromium's peak memory (the sum of its processes' RSS sampled every 50 ms,
// which counts shared pages once per process: an upper bound). Every run should pass: anything
// else is printed as a finding. The checker alone (no database writes).
// Usage: node bench/synthetic/browser.ts [--runs 20]
import { fork } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { runChecker } from '../../src/server/engine/checkers/run.ts';
import { closeSharedBrowser, sharedBrowser } from '../../src/server/engine/checkers/browser/launch.ts';
import { configureBrowser } from '../../src/server/engine/checkers/browser/settings.ts';
import { type CheckEnv, DEFAULT_LIMITS } from '../../src/server/engine/checkers/types.ts';
import { KINDS } from '../../src/server/engine/kinds/index.ts';
import { SHOP_EMAIL, SHOP_PASSWORD } from '../../tests/support/kind-servers/shop.ts';

const { values } = parseArgs({ options: { runs: { type: 'string', default: '20' } } });
const runs = Number(values.runs);
const child = fork(new URL('./shop-server.ts', import.meta.url).pathname);
const port = await new Promise<number>((resolve) => child.once('message', (m: { port: number }) => resolve(m.port)));
const base = `http://127.0.0.1:${port}`;
const steps = [
  { action: 'goto', url: `${base}/login` },
  { action: 'fill', selector: '#email', value: SHOP_EMAIL },
  { action: 'fill', selector: '#password', value: '{{secrets.SHOP_PASSWORD}}' },
  { action: 'click', selector: 'button[type=submit]' },
  { action: 'assert_text', selector: '#user', value: SHOP_EMAIL },
];
const { config, problems } = KINDS.browser.validate((k) => ({ steps })[k as 'steps'] as never, { allowPrivate: true });
if (Object.keys(problems).length) throw new Error(JSON.stringify(problems));
const env: CheckEnv = {
  now: Date.now,
  allowPrivateTargets: true,
  resolve: async () => [],
  limits: DEFAULT_LIMITS,
  secrets: async () => ({ SHOP_PASSWORD }),
};
const findings = new Map<string, number>();
const one = async (id: string): Promise<number> => {
  const o = await runChecker(
    KINDS.browser.check,
    { id, type: 'browser', config, timeoutMs: 60_000, lastPushAt: null, intervalMs: 300_000, createdAt: 0 },
    env,
    new AbortController(),
    (e) => {
      throw e;
    },
  );
  if (o.status !== 'operational') findings.set(o.error ?? o.status, (findings.get(o.error ?? o.status) ?? 0) + 1);
  return o.timings?.total ?? 0;
};

const HZ = 100; // USER_HZ of /proc/<pid>/stat on Linux
function chromiumPids(): number[] {
  return readdirSync('/proc')
    .filter((d) => /^\d+$/.test(d))
    .filter((d) => {
      try {
        return readFileSync(`/proc/${d}/cmdline`, 'utf8').includes('chromium');
      } catch {
        return false;
      }
    })
    .map(Number);
}
function chromiumCpuMs(): number {
  let t = 0;
  for (const p of chromiumPids()) {
    try {
      const f = readFileSync(`/proc/${p}/stat`, 'utf8').split(') ')[1].split(' ');
      t += ((Number(f[11]) + Number(f[12])) * 1000) / HZ;
    } catch {}
  }
  return t;
}
function chromiumRssMb(): number {
  let t = 0;
  for (const p of chromiumPids()) {
    try {
      t += Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${p}/status`, 'utf8'))?.[1] ?? 0) / 1024;
    } catch {}
  }
  return t;
}

await sharedBrowser();
await one('warm-up');
for (const concurrency of [1, 2]) {
  configureBrowser({ concurrency });
  let peak = 0;
  const sampler = setInterval(() => {
    peak = Math.max(peak, chromiumRssMb());
  }, 50);
  const c0 = chromiumCpuMs();
  const n0 = process.cpuUsage();
  const t0 = performance.now();
  const walls = (await Promise.all(Array.from({ length: runs }, (_, i) => one(`run-${i}`)))).sort((a, b) => a - b);
  const wall = performance.now() - t0;
  const n = process.cpuUsage(n0);
  const c = chromiumCpuMs() - c0;
  clearInterval(sampler);
  console.log(
    `concurrency ${concurrency}: ${Math.round((runs / wall) * 60_000)} runs/min, run wall median ${Math.round(walls[runs >> 1])} ms, ` +
      `CPU per run ${Math.round((n.user + n.system) / 1000 / runs)} ms (platform) + ${Math.round(c / runs)} ms (Chromium), ` +
      `Chromium peak RSS ${Math.round(peak)} MB`,
  );
}
for (const [what, count] of findings) console.log(`finding: ${count} × ${what}`);
await closeSharedBrowser();
child.kill();
