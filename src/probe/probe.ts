// The probe: says hello (and stops if told to upgrade), keeps its location's assignments current
// by long poll, runs them on their intervals and hands the results to the sender, which keeps
// them on disk until the platform has them. One log line per change of state: connected,
// unreachable, buffering, delivered, dropped, stopped.
import { idsHash } from '../lib/probe-assignments.ts';
import { dnsResolver } from '../server/net/dns-lookup.ts';
import { type CheckEnv, DEFAULT_LIMITS } from '../server/engine/checkers/types.ts';
import { DiskBuffer } from './buffer.ts';
import { PlatformClient, PlatformError } from './client.ts';
import type { ProbeConfig } from './config.ts';
import { ProbeScheduler } from './scheduler.ts';
import { type Link, Sender } from './sender.ts';
import { type AssignmentsAnswer, type HelloAnswer, toWire } from './wire.ts';
import { randomBytes } from 'node:crypto';
import { streamResultId } from '../lib/probe-result-ids.ts';
import { RunFigures } from './run-figures.ts';
import { configureBrowser } from '../server/engine/checkers/browser/settings.ts';
import { closeSharedBrowser } from '../server/engine/checkers/browser/launch.ts';

/** Seconds a long poll waits for a change (the platform allows up to 30) */
const POLL_WAIT_S = 25;
/** The whole set is fetched again this often, whatever the deltas said: a safety net, cheap */
const FULL_REFRESH_MS = 10 * 60_000;
const RETRY_MIN_MS = 1000;
const RETRY_MAX_MS = 15_000;

/** Exit codes: 0 stopped, 1 token refused, 3 too old (told to upgrade) */
export const EXIT_UNAUTHORIZED = 1;
export const EXIT_UPGRADE = 3;

export interface RunningProbe {
  /** Resolves with the exit code once the probe has stopped (on its own or by stop()) */
  done: Promise<number>;
  stop(): Promise<void>;
}

export function startProbe(cfg: ProbeConfig, version: string, log: (line: string) => void): RunningProbe {
  const client = new PlatformClient(cfg.url, cfg.token);
  const buffer = new DiskBuffer(cfg.bufferDir, cfg.bufferMaxBytes, log);
  const resolve = dnsResolver(cfg.dnsResolvers);
  const stopping = new AbortController();
  let finish: (code: number) => void = () => {};
  const done = new Promise<number>((r) => {
    finish = r;
  });
  let hello: HelloAnswer | null = null;
  let up: boolean | null = null;
  let fatal: number | null = null;
  /** What the platform assigned (including kinds this probe does not run): compared with its fingerprint */
  const assigned = new Set<string>();
  let allowPrivate: boolean | string[] = cfg.allowPrivateTargets;

  const link: Link = {
    up() {
      if (up === true) return;
      up = true;
      const where = hello ? ` (location ${hello.location.slug}, "${hello.location.name}")` : '';
      const browser = cfg.browser ? `; browser checks with Chromium at ${cfg.browser.executablePath}` : '; no browser checks';
      log(`connected to ${cfg.url}${where} as ${cfg.instance}${browser}`);
    },
    down(reason) {
      if (up === false) return;
      up = false;
      log(`platform unreachable (${reason}); checks go on`);
    },
    isUp: () => up === true,
    unauthorized(reason) {
      if (fatal !== null) return;
      log(`the platform refused this probe's token (${reason}): it was revoked or is unknown. Create a new token on the location's page.`);
      void shutdown(EXIT_UNAUTHORIZED);
    },
  };

  // This probe's own browser (one Chromium, BROWSER_CONCURRENCY runs at once), as the platform runs its own.
  if (cfg.browser) configureBrowser(cfg.browser);
  const capabilities = cfg.browser ? ['browser'] : [];
  // This run's result stream: the sender appends results to the buffer in the order they are
  // numbered here and delivers the buffer oldest first, so the platform sees each stream in order.
  const stream = randomBytes(16).toString('base64url');
  let resultSeq = 0;
  const scheduler = new ProbeScheduler(
    (): CheckEnv => ({ now: Date.now, allowPrivateTargets: allowPrivate, resolve, dnsServers: cfg.dnsResolvers, limits: DEFAULT_LIMITS }),
    (monitorId, startedAt, outcome) => sender.add(toWire(streamResultId(stream, ++resultSeq), monitorId, startedAt, outcome)),
    log,
  );
  const sender = new Sender(
    client,
    buffer,
    link,
    () => {
      const f = scheduler.figures();
      return { instance: cfg.instance, checks_per_second: f.checksPerSecond, lag_ms_p99: f.lagP99 };
    },
    log,
  );

  scheduler.refuses = (type) =>
    type === 'browser' && !cfg.browser
      ? 'browser checks need Chromium on this probe (CHROMIUM_PATH; PROBE_BROWSER_CHECKS): another probe of the location with it runs them'
      : null;

  const run = new RunFigures();
  scheduler.figuresOfRun = run;
  sender.run = run;

  const pause = (ms: number) =>
    new Promise<void>((r) => {
      const t = setTimeout(r, ms);
      stopping.signal.addEventListener(
        'abort',
        () => {
          clearTimeout(t);
          r();
        },
        { once: true },
      );
    });

  /** Applies an answer; false when the set drifted from the platform's (the whole set is fetched next). */
  function apply(a: AssignmentsAnswer): boolean {
    allowPrivate = a.allow_private_targets ?? cfg.allowPrivateTargets;
    if (a.full) {
      assigned.clear();
      for (const m of a.monitors) assigned.add(m.id);
      scheduler.replace(a.monitors);
    } else {
      for (const id of a.removed) {
        assigned.delete(id);
        scheduler.remove(id);
      }
      for (const m of a.monitors) {
        assigned.add(m.id);
        scheduler.upsert(m);
      }
    }
    return assigned.size === a.count && idsHash(assigned) === a.ids_hash;
  }

  async function helloLoop(): Promise<boolean> {
    let wait = RETRY_MIN_MS;
    while (!stopping.signal.aborted) {
      try {
        hello = await client.hello(cfg.instance, version, capabilities);
        scheduler.spreadKey = hello.location.slug;
        link.up();
        if (hello.upgrade) {
          log(
            `this probe is version ${version}, older than the platform's minimum ${hello.min_version}: upgrade it (the platform will not take its results).`,
          );
          void shutdown(EXIT_UPGRADE);
          return false;
        }
        return true;
      } catch (e) {
        if (!handle(e)) return false;
        await pause(wait);
        wait = Math.min(wait * 2, RETRY_MAX_MS);
      }
    }
    return false;
  }

  /** Sorts a failed call: false when the probe must stop. */
  function handle(e: unknown): boolean {
    if (e instanceof PlatformError && e.kind === 'unauthorized') {
      link.unauthorized(e.message);
      return false;
    }
    if (stopping.signal.aborted) return false;
    if (e instanceof PlatformError && e.kind === 'rejected') log(`the platform refused a call: ${e.message}`);
    else link.down((e as Error).message);
    return true;
  }

  async function assignmentsLoop(): Promise<void> {
    let version: string | null = null;
    let fullAt = 0;
    let wait = RETRY_MIN_MS;
    while (!stopping.signal.aborted) {
      if (Date.now() - fullAt >= FULL_REFRESH_MS) version = null;
      try {
        const a = await client.assignments(cfg.instance, version, POLL_WAIT_S, stopping.signal);
        link.up();
        wait = RETRY_MIN_MS;
        if (a.full) fullAt = Date.now();
        const before = assigned.size;
        if (!a.changed) version = a.version;
        else if (apply(a)) version = a.version;
        else version = null; // drifted: ask for the whole set
        if (a.changed && (a.full || assigned.size !== before)) log(`assignments: ${assigned.size} monitors`);
      } catch (e) {
        if (!handle(e)) return;
        await pause(wait);
        wait = Math.min(wait * 2, RETRY_MAX_MS);
      }
    }
  }

  async function shutdown(code: number): Promise<void> {
    if (fatal !== null) return;
    fatal = code;
    stopping.abort();
    scheduler.stop();
    await sender.stop();
    await closeSharedBrowser().catch(() => {});
    const left = buffer.pending;
    log(run.summary());
    log(`stopped${left > 0 ? `; ${left} results kept on disk for the next start` : ''}`);
    finish(code);
  }

  void (async () => {
    if (!(await helloLoop())) return;
    sender.start();
    scheduler.start();
    await assignmentsLoop();
  })().catch((e) => {
    log(`stopped by an error: ${(e as Error).stack ?? e}`);
    void shutdown(1);
  });

  return { done, stop: () => shutdown(0) };
}
