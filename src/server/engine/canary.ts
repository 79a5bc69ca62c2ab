// The checker canary: targets the operator names (CANARY_TARGETS) that must stay reachable from
// the servers that run checks. When every one of them fails, it is this server that is offline,
// not the tenants' targets: the result writer then holds every "down" result (no state change,
// no incident, no alert; results that did get an answer are recorded as usual) and the super
// admins get one `system` notice; when a target answers again, checking goes on as before and
// they are told. The verdict lives in platform_state, so every process on the database agrees
// and the writer reads it inside the transaction that would commit a down verdict.
//
// It runs in the engine rather than as a leased timed job: only a process that runs checks sees
// the network they go through, and before a monitor's first "down" is committed the engine needs
// a verdict from a probe that began after that check did (scheduler.ts asks for one), which a
// job running every 30 s elsewhere cannot give.
import { formatDuration } from '../../lib/duration.ts';
import { platformStateRepo } from '../db/repositories/platform-state-repo.ts';
import { type DbScope, withTransaction } from '../db/scope.ts';
import { notifySuperAdmins } from '../notify/super-admins.ts';
import type { NotificationDraft } from '../notify/draft.ts';
import type { CheckEnv, CheckOutcome } from './checkers/types.ts';
import { failed } from './checkers/types.ts';
import { KINDS } from './kinds/index.ts';

const STATE = 'canary';
/** One probe of all targets ends within this (each target gets the same deadline). */
const CANARY_TIMEOUT_MS = 5_000;

interface Verdict {
  failing: boolean;
  /** Since when the canary has been failing (or answering) */
  since: number;
  /** Why the targets failed, when failing */
  detail: string | null;
}

/** The canary's verdict as last recorded by any process (never probed: answering). */
export async function canaryVerdict(db: DbScope): Promise<{ failing: boolean; since: number | null }> {
  const raw = await platformStateRepo(db).get(STATE);
  const v = raw ? (JSON.parse(raw) as Verdict) : null;
  return { failing: v?.failing ?? false, since: v?.since ?? null };
}

/** Whether the canary is failing now: the writer's test. */
export const canaryFailing = async (db: DbScope): Promise<boolean> => (await canaryVerdict(db)).failing;

/** A target as a check of the engine's own kinds: any HTTP answer, or an open TCP connection, proves the way out works. */
function checkOf(target: string): { type: 'http' | 'tcp'; config: object } {
  if (/^https?:\/\//i.test(target))
    return { type: 'http', config: { url: target, accepted_status_codes: ['100-599'], follow_redirects: false } };
  const i = target.lastIndexOf(':');
  const host = target.slice(0, i).replace(/^\[|\]$/g, '');
  return { type: 'tcp', config: { host, port: Number(target.slice(i + 1)) } };
}

/** Checks every target at once; answers the failures (empty: at least one answered). */
async function probeTargets(targets: readonly string[], env: CheckEnv): Promise<string[]> {
  const outcomes = await Promise.all(targets.map((t) => probeOne(t, env)));
  if (outcomes.some((o) => o.status !== 'down')) return [];
  return outcomes.map((o, i) => `${targets[i]}: ${o.error ?? 'no answer'}`);
}

async function probeOne(target: string, env: CheckEnv): Promise<CheckOutcome> {
  const { type, config } = checkOf(target);
  const abort = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const hard = new Promise<CheckOutcome>((resolve) => {
    timer = setTimeout(() => {
      abort.abort();
      // A checker that ignores its signal still ends here.
      setTimeout(() => resolve(failed(`Timed out after ${CANARY_TIMEOUT_MS / 1000} s`)), 250);
    }, CANARY_TIMEOUT_MS);
  });
  const now = env.now();
  try {
    const target = { id: 'canary', type, config, timeoutMs: CANARY_TIMEOUT_MS, lastPushAt: null, intervalMs: 0, createdAt: now };
    return await Promise.race([KINDS[type].check(target as never, env, abort.signal), hard]);
  } catch {
    return failed('The check could not be completed');
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Records a probe's verdict; a change is one compare-and-set with its notice to the super admins
 * in the same transaction, so of several processes noticing it at once one announces it.
 * Answers whether the canary is failing now.
 */
async function recordProbe(db: DbScope, failures: string[], now: number): Promise<boolean> {
  const failing = failures.length > 0;
  for (let attempt = 0; attempt < 3; attempt++) {
    const changed = await withTransaction(db, async (tx) => {
      const repo = platformStateRepo(tx);
      const raw = await repo.get(STATE);
      const was: Verdict = raw ? (JSON.parse(raw) as Verdict) : { failing: false, since: now, detail: null };
      if (was.failing === failing) return 'same';
      const next: Verdict = { failing, since: now, detail: failing ? failures.join('; ').slice(0, 1000) : null };
      if (!(await repo.compareAndSet(STATE, raw, JSON.stringify(next), now))) return 'raced';
      await notifySuperAdmins(tx, now, failing ? pausedDraft(next, failures.length) : resumedDraft(was, now));
      return 'changed';
    });
    if (changed !== 'raced') return failing;
  }
  return failing;
}

function pausedDraft(v: Verdict, targets: number): NotificationDraft {
  return {
    type: 'system',
    severity: 'critical',
    title: 'Checks are paused: this server cannot reach its canary targets',
    message:
      `${targets === 1 ? 'The canary target' : `All ${targets} canary targets`} failed, so this server is the one offline. ` +
      'Until one answers again, monitors that fail are not marked down and no incident or alert is sent; ' +
      'monitors that answer are recorded as usual.',
    details: v.detail,
    metadata: { event: 'canary_failing', since: v.since },
    actionUrl: '/notifications',
    dedupeKey: `canary:${v.since}:paused`,
  };
}

function resumedDraft(was: Verdict, now: number): NotificationDraft {
  return {
    type: 'system',
    severity: 'info',
    title: 'Checks resumed: the canary targets answer again',
    message: `A canary target answered after ${formatDuration(now - was.since)}; monitors are marked down and alerts are sent again as usual.`,
    details: null,
    metadata: { event: 'canary_recovered', since: was.since },
    actionUrl: '/notifications',
    dedupeKey: `canary:${was.since}:resumed`,
  };
}

export interface Canary {
  /** Probes at once and then every interval */
  start(): void;
  stop(): Promise<void>;
  /** Probes now (or joins the probe under way) and records the verdict */
  probe(): Promise<void>;
  /**
   * Returns once the recorded verdict can judge a failure seen by a check that began at `mono`
   * (performance.now()): a probe that began no earlier said so, or the canary is failing already
   * (holding a result is the safe side).
   */
  judge(mono: number): Promise<void>;
}

export function createCanary(db: DbScope, targets: readonly string[], env: CheckEnv, intervalMs: number, log: (m: string) => void): Canary {
  let last: { startedAt: number; failing: boolean } | null = null;
  let running: { startedAt: number; done: Promise<void> } | null = null;
  let timer: NodeJS.Timeout | undefined;

  function probe(): Promise<void> {
    if (running) return running.done;
    const startedAt = performance.now();
    const done = (async () => {
      try {
        const failures = await probeTargets(targets, env);
        const failing = await recordProbe(db, failures, env.now());
        if (failing !== last?.failing)
          log(
            failing
              ? `engine: checks paused, no canary target answers: ${failures.join('; ')}`
              : 'engine: canary targets answer, checks resumed',
          );
        last = { startedAt, failing };
      } catch (e) {
        log(`engine: canary probe failed: ${(e as Error).message}`);
      } finally {
        running = null;
      }
    })();
    running = { startedAt, done };
    return done;
  }

  return {
    start() {
      void probe();
      timer = setInterval(() => void probe(), intervalMs);
      timer.unref();
    },
    async stop() {
      clearInterval(timer);
      await running?.done;
    },
    probe,
    async judge(mono) {
      for (let i = 0; i < 3; i++) {
        if (last && (last.failing || last.startedAt >= mono)) return;
        if (running && running.startedAt < mono) await running.done; // began too early: the next one counts
        await probe();
      }
    },
  };
}
