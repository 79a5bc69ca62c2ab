// The jobs runner on real databases: a job runs at its period; runners of several processes on
// one database share each period's run through the lease (the others skip); a crashed holder's
// lease expires and another runner takes over; a failing job is logged and runs again at its
// next period while the process and the other jobs carry on.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DB_KINDS, newDatabaseLocation, tempDir } from '../../../tests/support/test-db.ts';
import { parseConfig } from '../config.ts';
import { openDb, type Db, type DbKind } from '../db/connect.ts';
import type { Services } from '../domain/context.ts';
import { createServices } from '../services.ts';
import { createJobRunner, type Alarm } from './runner.ts';
import type { Job } from './job.ts';
import { waitFor } from '../../../tests/support/wait-for.ts';

/** A job that records which process ran it and when (by that process's clock). */
function recordingJob(name: string, periodMs: number, work: () => Promise<void> = async () => {}) {
  const runs: Array<{ by: Services; at: number }> = [];
  const job: Job = {
    name,
    periodMs,
    async run(services, now) {
      runs.push({ by: services, at: now });
      await work();
      return undefined;
    },
  };
  return { job, runs };
}

describe.each(DB_KINDS)('jobs runner on %s', (kind: DbKind) => {
  // Two "processes": each its own connection and services, one database, one clock.
  let t = Date.UTC(2026, 5, 1, 12, 0, 0);
  const clock = () => t;

  /**
   * The runners' timers on the test's clock: `advance` moves the clock to the earliest wake-up
   * asked for and fires every one due then, then waits until the runners have asked for their
   * next wake-ups (each runner keeps one per job armed while started).
   */
  function testAlarm() {
    let ids = 0;
    const armed = new Map<number, { wake: () => void; at: number }>();
    const alarm: Alarm = {
      set(wake, ms) {
        armed.set(++ids, { wake, at: t + ms });
        return ids;
      },
      cancel: (id) => void armed.delete(id as number),
    };
    async function advance(expectArmed: number): Promise<void> {
      await waitFor(() => armed.size === expectArmed, { what: `${expectArmed} wake-ups armed` });
      t = Math.max(t, Math.min(...[...armed.values()].map((w) => w.at)));
      for (const [id, w] of [...armed]) {
        if (w.at > t) continue;
        armed.delete(id);
        w.wake();
      }
    }
    return { alarm, armed, advance };
  }
  let dbs: Db[] = [];
  let a: Services;
  let b: Services;
  let realTime: Services;

  beforeAll(async () => {
    const loc = await newDatabaseLocation(kind);
    const open = () => (loc.file ? openDb({ kind: 'sqlite', file: loc.file }) : openDb({ kind: 'postgres', url: loc.url!, max: 3 }));
    dbs = [open(), open(), open()];
    const config = parseConfig({ NODE_ENV: 'test', DATA_DIR: tempDir(), LOG_LEVEL: 'silent' });
    a = await createServices(config, { db: dbs[0], now: clock });
    b = await createServices(config, { db: dbs[1], now: clock });
    realTime = await createServices(config, { db: dbs[2] });
  });
  afterAll(async () => {
    await Promise.all(dbs.map((db) => db.close()));
  });

  it('runs a job at its period, never more often', async () => {
    const { job, runs } = recordingJob('every-150ms', 150);
    const timers = testAlarm();
    const runner = createJobRunner(a, { jobs: [job], alarm: timers.alarm });
    runner.start();
    for (let i = 1; i <= 5; i++) {
      await timers.advance(1);
      await waitFor(() => runs.length === i, { what: `run ${i}` });
    }
    await waitFor(() => timers.armed.size === 1, { what: 'the sixth wake-up armed' });
    await runner.stop();
    expect(timers.armed.size).toBe(0); // stopped: the armed wake-up is cancelled, nothing runs any more
    expect(runs).toHaveLength(5);
    for (let i = 1; i < runs.length; i++) expect(runs[i].at - runs[i - 1].at).toBeGreaterThanOrEqual(150);
  });

  it('runs a job once per period across two runners on one database; the other skips', async () => {
    const { job, runs } = recordingJob('shared', 60_000);
    const first = createJobRunner(a, { jobs: [job] });
    const second = createJobRunner(b, { jobs: [job] });
    for (let period = 0; period < 5; period++) {
      const ran = await Promise.all([first.runDue(), second.runDue()]);
      expect(ran.flat()).toEqual(['shared']);
      expect(await second.runDue()).toEqual([]); // within the period: nothing more
      t += 60_000;
    }
    expect(runs).toHaveLength(5);

    // Started side by side, each waking on its timers: still one run per period, not one per runner.
    const together = recordingJob('shared-live', 200);
    const timers = testAlarm();
    const live = [
      createJobRunner(a, { jobs: [together.job], alarm: timers.alarm }),
      createJobRunner(b, { jobs: [together.job], alarm: timers.alarm }),
    ];
    for (const r of live) r.start();
    const from = t;
    while (t < from + 5 * 200) await timers.advance(2);
    await waitFor(() => timers.armed.size === 2, { what: "both runners done with the last period's attempts" });
    await Promise.all(live.map((r) => r.stop()));
    expect(together.runs).toHaveLength(6); // periods starting at 0, 200, ... 1000 ms: two unleased runners would make 12
  });

  it("lets a crashed holder's lease expire, then another runner takes the job over", async () => {
    const { job, runs } = recordingJob('takeover', 60_000);
    const crashed = createJobRunner(a, { jobs: [job] });
    const survivor = createJobRunner(b, { jobs: [job] });
    expect(await crashed.runDue()).toEqual(['takeover']);
    // The holder dies without stopping (no lease handed back).
    t += 30_000;
    expect(await survivor.runDue()).toEqual([]);
    t += 30_000;
    expect(await survivor.runDue()).toEqual(['takeover']);
    expect(runs.map((r) => r.by)).toEqual([a, b]);
    t += 60_000;
    expect(await survivor.runDue()).toEqual(['takeover']); // and keeps it
  });

  it('logs a failing job and runs it again at its next period; the process and other jobs carry on', async () => {
    let calls = 0;
    const flaky = recordingJob('flaky', 60_000, async () => {
      calls += 1;
      if (calls === 1) throw new Error('the report could not be built');
    });
    const healthy = recordingJob('healthy', 60_000);
    const log: string[] = [];
    const runner = createJobRunner(a, { jobs: [flaky.job, healthy.job], log: (line) => void log.push(line) });
    expect((await runner.runDue()).sort()).toEqual(['flaky', 'healthy']);
    expect(log).toEqual(['jobs: flaky failed: the report could not be built']);
    expect(await runner.runDue()).toEqual([]); // not retried within its period
    t += 60_000;
    expect((await runner.runDue()).sort()).toEqual(['flaky', 'healthy']);
    expect(log).toHaveLength(1);
    expect(flaky.runs).toHaveLength(2);

    // Started, on its timers: a job that always throws is retried each period; no crash, no rejection.
    const broken = recordingJob('broken', 100, async () => {
      throw new Error('disk on fire');
    });
    const liveLog: string[] = [];
    const timers = testAlarm();
    const live = createJobRunner(a, { jobs: [broken.job], log: (line) => void liveLog.push(line), alarm: timers.alarm });
    live.start();
    for (let i = 0; i < 4; i++) await timers.advance(1);
    await waitFor(() => timers.armed.size === 1, { what: 'the fifth wake-up armed' });
    await live.stop();
    expect(broken.runs.length).toBe(4);
    expect(liveLog.length).toBe(broken.runs.length);
    expect(new Set(liveLog)).toEqual(new Set(['jobs: broken failed: disk on fire']));
  });

  it('stop() waits for a running job', async () => {
    let finished = false;
    let release = () => {};
    const held = new Promise<void>((r) => (release = r));
    const slow = recordingJob('slow', 60_000, async () => {
      await held; // the job runs until the test lets it finish
      finished = true;
    });
    // Real timers and clock here: the runner as the server starts it.
    const runner = createJobRunner(realTime, { jobs: [slow.job] });
    runner.start();
    await waitFor(() => slow.runs.length === 1, { what: 'the slow job started' });
    const stopped = runner.stop().then(() => finished); // whether the job had finished when stop() answered
    await new Promise((r) => setImmediate(r)); // a turn of the event loop: a stop() that does not wait has answered by now
    release();
    expect(await stopped).toBe(true);
  });
});
