// api_flow benchmark (issue 29): the shop's 5-step journey (sign in, products, cart, pay, order)
// through the engine's runChecker against the loopback shop in another process.
//   1. flat out: --flows (1,000) flows, --concurrency (20) at a time: CPU ms per flow, wall time;
//   2. paced: --monitors (1,000) monitors at --interval (60 s) for --seconds (20): one flow every
//      interval/monitors ms, the event loop's delay p99 (target <= 50 ms) and the CPU share.
// The checker alone (no database writes; bench/engine measures those). Every flow should pass:
// anything else is printed as a finding.
// Usage: node bench/synthetic/api-flow.ts [--flows 1000 --concurrency 20 --monitors 1000 --interval 60 --seconds 20]
import { fork } from 'node:child_process';
import os from 'node:os';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { runChecker } from '../../src/server/engine/checkers/run.ts';
import { type CheckEnv, type CheckOutcome, DEFAULT_LIMITS } from '../../src/server/engine/checkers/types.ts';
import { KINDS } from '../../src/server/engine/kinds/index.ts';
import { shopFlow } from '../../tests/support/kind-servers/shop-flows.ts';

const { values } = parseArgs({
  options: {
    flows: { type: 'string', default: '1000' },
    concurrency: { type: 'string', default: '20' },
    monitors: { type: 'string', default: '1000' },
    interval: { type: 'string', default: '60' },
    seconds: { type: 'string', default: '20' },
  },
});

const child = fork(new URL('./shop-server.ts', import.meta.url).pathname);
const port = await new Promise<number>((resolve) => child.once('message', (m: { port: number }) => resolve(m.port)));
const steps = shopFlow((p) => `http://127.0.0.1:${port}${p}`);
const { config } = KINDS.api_flow.validate((k) => ({ steps })[k as 'steps'] as never, { allowPrivate: true });
const env: CheckEnv = { now: Date.now, allowPrivateTargets: true, resolve: async () => [], limits: DEFAULT_LIMITS };
const findings = new Map<string, number>();
const one = async (): Promise<void> => {
  const o: CheckOutcome = await runChecker(
    KINDS.api_flow.check,
    { id: 'bench', type: 'api_flow', config, timeoutMs: 10_000, lastPushAt: null, intervalMs: 60_000, createdAt: 0 },
    env,
    new AbortController(),
    (e) => {
      throw e;
    },
  );
  if (o.status !== 'operational') findings.set(`${o.status}: ${o.error}`, (findings.get(`${o.status}: ${o.error}`) ?? 0) + 1);
};
const cpuMs = (u: NodeJS.CpuUsage) => (u.user + u.system) / 1000;

try {
  for (let i = 0; i < 50; i++) await one(); // warm-up
  console.log(`api_flow benchmark: the shop's 5-step journey, load ${os.loadavg()[0].toFixed(1)} on ${os.cpus().length} cores`);

  const flows = Number(values.flows);
  const concurrency = Number(values.concurrency);
  let started = 0;
  let c0 = process.cpuUsage();
  let t0 = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (started < flows) {
        started++;
        await one();
      }
    }),
  );
  const flat = cpuMs(process.cpuUsage(c0));
  console.log(
    `  flat out: ${flows} flows, ${concurrency} at a time: ${(flat / flows).toFixed(2)} ms CPU a flow (${(flat / flows / 5).toFixed(2)} a request), ${Math.round(performance.now() - t0)} ms wall`,
  );

  const gapMs = (Number(values.interval) * 1000) / Number(values.monitors);
  const count = Math.floor((Number(values.seconds) * 1000) / gapMs);
  const lag = monitorEventLoopDelay({ resolution: 10 });
  lag.enable();
  c0 = process.cpuUsage();
  t0 = performance.now();
  const running: Promise<void>[] = [];
  for (let i = 0; i < count; i++) {
    running.push(one());
    const next = t0 + (i + 1) * gapMs;
    await new Promise((r) => setTimeout(r, Math.max(0, next - performance.now())));
  }
  await Promise.all(running);
  lag.disable();
  const wall = performance.now() - t0;
  const paced = cpuMs(process.cpuUsage(c0));
  console.log(
    `  paced: ${values.monitors} monitors at ${values.interval} s (${count} flows in ${Math.round(wall / 1000)} s): event loop delay p99 ${(lag.percentile(99) / 1e6).toFixed(1)} ms, CPU ${((paced / wall) * 100).toFixed(1)} % of a core, ${(paced / count).toFixed(2)} ms a flow`,
  );
  for (const [text, n] of findings) console.log(`  finding: ${n} × ${text}`);
} finally {
  child.kill();
}
