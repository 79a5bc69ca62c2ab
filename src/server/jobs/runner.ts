// Runs the timed jobs in this process (server or worker). Each job is attempted at its period;
// before running, the runner takes the job's lease in the database for one period, so of all
// the processes sharing a database exactly one runs each period and the others skip, trying
// again when that lease ends (a crashed holder's lease simply runs out). A failing job is
// logged and runs again at its next period; it never stops the process or the other jobs.
import { randomBytes } from 'node:crypto';
import type { Services } from '../domain/context.ts';
import { jobLeasesRepo } from '../db/repositories/job-leases-repo.ts';
import { loggableError } from '../db/outage.ts';
import type { Job } from './job.ts';
import { JOBS } from './registry.ts';

export interface JobRunnerOptions {
  /** Default: every job of registry.ts */
  jobs?: readonly Job[];
  /** Identifies this process's leases */
  holder?: string;
  log?: (line: string) => void;
  /** What wakes the runner for a job's next attempt (default: real timers); tests pass their own. */
  alarm?: Alarm;
}

/** Calls `wake` once, `ms` from now; `cancel` takes what `set` answered. */
export interface Alarm {
  set(wake: () => void, ms: number): unknown;
  cancel(handle: unknown): void;
}

const realTimers: Alarm = {
  set(wake, ms) {
    const timer = setTimeout(wake, ms);
    timer.unref(); // the server or the engine keeps the process alive, not the hourly jobs
    return timer;
  },
  cancel: (handle) => clearTimeout(handle as NodeJS.Timeout),
};

export interface JobRunner {
  readonly holder: string;
  /** Attempts every job at once, then each at its period. */
  start(): void;
  /** Starts nothing more and waits for running jobs. Leases stay: their period's work is done. */
  stop(): Promise<void>;
  /** Attempts each job whose time has come, once; answers the names of those that ran (tests). */
  runDue(): Promise<string[]>;
}

export function createJobRunner(services: Services, opts: JobRunnerOptions = {}): JobRunner {
  const jobs = opts.jobs ?? JOBS;
  const holder = opts.holder ?? `${process.pid}-${randomBytes(4).toString('hex')}`;
  const log = opts.log ?? (() => {});
  const alarm = opts.alarm ?? realTimers;
  const leases = jobLeasesRepo(services.db);
  /** When each job is attempted next, by services.now() */
  const nextAt = new Map<string, number>(jobs.map((j) => [j.name, 0]));
  const running = new Map<string, Promise<boolean>>();
  const timers = new Map<string, unknown>();
  let started = false;

  /** Runs one period of `job` if this process gets its lease; answers whether it ran. */
  async function attempt(job: Job): Promise<boolean> {
    const now = services.now();
    nextAt.set(job.name, now + job.periodMs);
    let leased = false;
    try {
      leased = await leases.acquire(job.name, holder, now, now + job.periodMs);
      if (!leased) {
        const heldUntil = await leases.expiresAt(job.name);
        nextAt.set(job.name, Math.min(now + job.periodMs, Math.max(heldUntil, now + 1)));
        return false;
      }
      const line = await job.run(services, now);
      if (line) log(`jobs: ${job.name}: ${line}`);
    } catch (e) {
      log(`jobs: ${job.name} failed: ${loggableError(e)}`);
    }
    return leased;
  }

  function track(job: Job): Promise<boolean> {
    const run = attempt(job).finally(() => running.delete(job.name));
    running.set(job.name, run);
    return run;
  }

  function arm(job: Job): void {
    if (!started) return;
    const delay = Math.min(job.periodMs, Math.max(0, (nextAt.get(job.name) ?? 0) - services.now()));
    const timer = alarm.set(() => {
      timers.delete(job.name);
      if (running.has(job.name)) return arm(job);
      void track(job).then(() => arm(job));
    }, delay);
    timers.set(job.name, timer);
  }

  return {
    holder,
    start() {
      if (started) return;
      started = true;
      for (const job of jobs) arm(job);
    },
    async stop() {
      started = false;
      for (const timer of timers.values()) alarm.cancel(timer);
      timers.clear();
      await Promise.all(running.values());
    },
    async runDue() {
      const now = services.now();
      const due = jobs.filter((j) => !running.has(j.name) && (nextAt.get(j.name) ?? 0) <= now);
      const ran = await Promise.all(due.map(async (j) => ((await track(j)) ? j.name : null)));
      return ran.filter((name) => name !== null);
    },
  };
}

/** Starts this process's jobs runner and stops it at shutdown (server and worker). */
export function startJobs(services: Services, opts: JobRunnerOptions = {}): JobRunner {
  const runner = createJobRunner(services, opts);
  (services.onShutdown ??= []).unshift(() => runner.stop());
  runner.start();
  return runner;
}
