// The check engine of one process: claims due monitors with a lease (so several processes on
// one PostgreSQL share the work and never run a check twice), runs each through its checker
// under a hard deadline, and hands outcomes to the batch writer. Per-company concurrency is
// capped by companies.max_workers; the process as a whole by maxInFlight. A destination host over
// the per-host check budget has its monitors' checks spaced out (destination-stretch.ts).
import { randomBytes } from 'node:crypto';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { badlyOverdue, monitorsRepo, type MonitorRow } from '../db/repositories/monitors-repo.ts';
import { loggableError } from '../db/outage.ts';
import { DEFAULT_LIMITS, failed, type Checker, type CheckEnv, type CheckLimits } from './checkers/types.ts';
import { runChecker } from './checkers/run.ts';
import { parseConfig } from './kinds/config.ts';
import { hostSecretsKey, openSecrets } from './kinds/secret-box.ts';
import { companySecrets } from './company-secrets.ts';
import { KINDS } from './kinds/index.ts';
import type { EngineHost } from './ports.ts';
import { writeBatch, phaseOffsetMs, type PendingResult } from './result-writer.ts';
import { canaryFailing, createCanary } from './canary.ts';
import { dnsResolver, perKeyLimit, type Resolver } from '../net/dns-lookup.ts';
import { configuredRdapDirectory } from '../net/rdap-bootstrap.ts';
import { monitorLinksRepo } from '../db/repositories/monitor-links-repo.ts';
import { createDestinationStretch } from './destination-stretch.ts';
import { checksTotal, missedSlotsTotal, resultsPending, schedulingLag } from '../metrics/platform.ts';

export interface EngineOptions {
  /** Identifies this process's leases */
  owner?: string;
  tickMs?: number;
  maxInFlight?: number;
  claimBatch?: number;
  flushMs?: number;
  flushSize?: number;
  lookaheadMs?: number;
  /** Added to a check's time-out to form its lease; a dead worker's checks run again after it (default: CHECK_LEASE_MARGIN_SECONDS) */
  leaseMarginMs?: number;
  extraCa?: string[];
  resolve?: Resolver;
  limits?: Partial<CheckLimits>;
  log?: (msg: string) => void;
  /** How long stop() lets running checks finish before abandoning them (main.ts force-exits at 15 s) */
  stopGraceMs?: number;
}

export interface EngineStats {
  /** results committed */
  checks: number;
  /** checks begun (a result follows within the check's timeout and the next flush) */
  started: number;
  batches: number;
  lagMs: number[];
  /** interval slots skipped because a check started more than an interval late */
  missedSlots: number;
  inFlight: number;
}

export interface Engine {
  readonly owner: string;
  start(): void;
  stop(): Promise<void>;
  /** Look for due work now (a monitor was created or resumed). */
  poke(): void;
  /** Claims and runs everything due now, waits for the results to be committed (tests). */
  runDueNow(): Promise<number>;
  /** Probes the canary targets now (tests); absent without CANARY_TARGETS */
  probeCanary?: () => Promise<void>;
  flush(): Promise<void>;
  stats: EngineStats;
  eventLoopDelayP99(): number;
}

export function createEngine(services: EngineHost, opts: EngineOptions = {}): Engine {
  const db = services.db;
  if (!services.monitorIncidents) throw new Error('engine: services have no monitorIncidents (services.ts wires them)');
  const incidents = services.monitorIncidents;
  const owner = opts.owner ?? `${process.pid}-${randomBytes(4).toString('hex')}`;
  const tickMs = opts.tickMs ?? 250;
  // Claimed checks waiting for their due time count too: at 833 checks/s (50,000 monitors at
  // 60 s) a second of look-ahead alone holds ~850, and 500 left claims running behind their slots.
  const maxInFlight = opts.maxInFlight ?? 2000;
  const claimBatch = opts.claimBatch ?? 200;
  const flushMs = opts.flushMs ?? 100;
  const flushSize = opts.flushSize ?? 200;
  const leaseMarginMs = opts.leaseMarginMs ?? (services.config.checkLeaseMarginSeconds ?? 30) * 1000;
  const stopGraceMs = opts.stopGraceMs ?? 8_000;
  /** Claims reach this far ahead so each check can start at its due time, not at the next tick. */
  const lookaheadMs = opts.lookaheadMs ?? Math.max(1000, tickMs * 2);
  const secretsKey = hostSecretsKey(services.config);
  const env: CheckEnv = {
    now: () => services.now(),
    allowPrivateTargets: services.config.allowPrivateTargets,
    resolve: opts.resolve ?? services.monitoring?.resolve ?? dnsResolver(services.config.dnsResolvers),
    dnsServers: services.config.dnsResolvers,
    rdap: configuredRdapDirectory(services.config.rdapBootstrapFile, services.config.rdapBaseUrls),
    memberStatuses: (ids) => monitorLinksRepo(services.db).statusesOf(ids),
    extraCa: opts.extraCa ?? services.monitoring?.extraCa,
    limits: { ...DEFAULT_LIMITS, ...opts.limits },
  };
  /** Each company's lookups in flight are capped: its black-holed names only hold up its own checks. */
  const lookupsOf = perKeyLimit(env.resolve);
  const log = opts.log ?? (() => {});
  const canaryTargets = services.config.canaryTargets ?? [];
  // The operator's own targets: private addresses are theirs to name.
  const canary =
    canaryTargets.length > 0
      ? createCanary(db, canaryTargets, { ...env, allowPrivateTargets: true }, (services.config.canaryIntervalSeconds ?? 30) * 1000, log)
      : null;
  const budget = services.config.maxChecksPerHostPerMinute ?? 0;
  const stretch = budget > 0 ? createDestinationStretch(db, budget, log) : null;
  const stats: EngineStats = { checks: 0, started: 0, batches: 0, lagMs: [], missedSlots: 0, inFlight: 0 };
  const loopDelay = monitorEventLoopDelay({ resolution: 10 });

  let running = false;
  let stopping = false;
  let timer: NodeJS.Timeout | undefined;
  let ticking: Promise<void> | undefined;
  let lastOverdueScan = 0;
  const inFlight = new Map<string, { company: string; abort: AbortController; done: Promise<void>; started: boolean }>();
  const perCompany = new Map<string, number>();
  const caps = new Map<string, { cap: number; at: number }>();
  let queue: PendingResult[] = [];
  let flushTimer: NodeJS.Timeout | undefined;
  let flushing: Promise<void> = Promise.resolve();

  function scheduleFlush(): void {
    if (queue.length >= flushSize) void flush();
    else if (!flushTimer) flushTimer = setTimeout(() => void flush(), flushMs);
  }

  function flush(): Promise<void> {
    if (flushTimer) clearTimeout(flushTimer);
    flushTimer = undefined;
    const batch = queue;
    queue = [];
    flushing = flushing.then(() => writeQueued(batch).finally(() => resultsPending.dec(batch.length)));
    return flushing;
  }

  /** Commits a batch (after the canary's verdict when one is needed), retrying conflicts. */
  async function writeQueued(batch: PendingResult[]): Promise<void> {
    if (batch.length === 0) return;
    // A monitor's first failure is committed only with a canary verdict from after its check began.
    const judgeFrom = batch.reduce((min, b) => Math.min(min, b.judgeFrom ?? Infinity), Infinity);
    if (canary && judgeFrom !== Infinity) await canary.judge(judgeFrom);
    for (let attempt = 1; ; attempt++) {
      try {
        await writeBatch(db, batch, services.now(), incidents, canary ? canaryFailing : undefined);
        stats.batches += 1;
        stats.checks += batch.length;
        return;
      } catch (e) {
        // Serialization conflicts on PostgreSQL: retry; the leases keep the checks ours.
        if (attempt >= 3) {
          log(`engine: writing ${batch.length} results failed: ${loggableError(e)}`);
          return;
        }
      }
    }
  }

  async function capOf(companyId: string): Promise<number> {
    const c = caps.get(companyId);
    const now = Date.now();
    if (c && now - c.at < 30_000) return c.cap;
    const [row] = await monitorsRepo(db).companyLimits([companyId]);
    const cap = Math.max(1, row?.max_workers ?? 50);
    caps.set(companyId, { cap, at: now });
    return cap;
  }

  async function runCheck(m: MonitorRow, claimedAt: number, startedMono: number, abort: AbortController): Promise<void> {
    // Stored credentials are opened for this check only; one that does not open fails the check
    // with a sentence saying what to do, rather than sending a sealed text as the password.
    const opened = openSecrets(parseConfig(m.config), secretsKey);
    const checker = opened.error === null ? KINDS[m.type].check : unreadable(opened.error);
    const outcome = await runChecker(
      checker,
      {
        id: m.id,
        type: m.type,
        config: opened.config,
        timeoutMs: m.timeout_seconds * 1000,
        lastPushAt: m.last_push_at,
        intervalMs: m.interval_seconds * 1000,
        createdAt: m.created_at,
      },
      { ...env, resolve: lookupsOf(m.company_id), secrets: companySecrets(db, secretsKey, m.company_id) },
      abort,
      // A checker bug: the operator's log gets the message, the tenant a product sentence.
      (e) => log(`engine: ${m.type} checker threw: ${e.message}`),
    );
    if (stopping && abort.signal.aborted) return; // stopped mid-check: the lease lapses, another worker runs it
    const judgeFrom = canary && outcome.status === 'down' && m.status !== 'down' ? startedMono : undefined;
    checksTotal.inc({ kind: m.type, status: outcome.status, location: 'local' }); // this process's engine: the built-in location
    resultsPending.inc();
    queue.push({
      monitorId: m.id,
      companyId: m.company_id,
      checkedAt: Math.max(claimedAt, services.now()),
      outcome,
      leaseOwner: owner,
      judgeFrom,
    });
    scheduleFlush();
  }

  // Per-company concurrency: at most `cap` checks of a company run at once; the rest of its
  // claimed checks wait in line for a slot (claims stop once a company has 4x cap queued).
  const waiting = new Map<string, Array<() => void>>();
  const queuedPerCompany = new Map<string, number>();
  async function acquire(company: string, cap: number): Promise<void> {
    if ((perCompany.get(company) ?? 0) < cap) {
      perCompany.set(company, (perCompany.get(company) ?? 0) + 1);
      return;
    }
    await new Promise<void>((resolve) => {
      if (!waiting.has(company)) waiting.set(company, []);
      waiting.get(company)!.push(resolve);
    });
  }
  function release(company: string): void {
    const next = waiting.get(company)?.shift();
    if (next)
      next(); // the slot passes straight to the next in line
    else perCompany.set(company, (perCompany.get(company) ?? 1) - 1);
  }

  /** `stretch`: its host is over the per-host budget, so its slots are this many intervals apart. */
  function launch(m: MonitorRow, cap: number, stretch = 1): void {
    // Claimed ahead of time: start at the exact due time, counted from now (after the claim
    // query, which takes tens of ms on a busy PostgreSQL), not from when the tick began.
    const due = m.next_due_at - m.interval_seconds * 1000;
    const wait = Math.min(Math.max(0, due - services.now()), lookaheadMs + 100);
    queuedPerCompany.set(m.company_id, (queuedPerCompany.get(m.company_id) ?? 0) + 1);
    const abort = new AbortController();
    const entry = { company: m.company_id, abort, done: Promise.resolve(), started: false };
    const begin = async () => {
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      if (abort.signal.aborted) return; // stopped before its turn
      await acquire(m.company_id, cap);
      try {
        if (abort.signal.aborted) return;
        entry.started = true;
        stats.started += 1;
        const started = services.now();
        if (due <= started) {
          stats.lagMs.push(started - due);
          schedulingLag.observe((started - due) / 1000);
        }
        // A monitor more than an interval late is claimed for "now" (no catch-up burst), which
        // hides its lateness from the lag above: count the slots it skipped instead.
        if (m.last_checked_at != null) {
          const skipped = Math.floor((started - Number(m.last_checked_at)) / (m.interval_seconds * 1000 * stretch)) - 1;
          if (skipped > 0) {
            stats.missedSlots += skipped;
            missedSlotsTotal.inc(skipped);
          }
        }
        if (stats.lagMs.length > 200_000) stats.lagMs.splice(0, 100_000);
        await runCheck(m, started, performance.now(), abort);
      } finally {
        release(m.company_id);
      }
    };
    entry.done = begin().finally(() => {
      inFlight.delete(m.id);
      queuedPerCompany.set(m.company_id, (queuedPerCompany.get(m.company_id) ?? 1) - 1);
      stats.inFlight = inFlight.size;
    });
    inFlight.set(m.id, entry);
    stats.inFlight = inFlight.size;
  }

  // Part of claiming rather than a job: it must run before the first claim after downtime.
  async function rephaseOverdue(now: number): Promise<void> {
    if (now - lastOverdueScan > 5_000) {
      lastOverdueScan = now;
      // After downtime: no burst of catch-up checks; each late monitor runs at its own phase.
      for (const m of await badlyOverdue(db, now, 5000)) {
        const interval = m.interval_seconds * 1000;
        await monitorsRepo(db).setNextDue(m.id, now + phaseOffsetMs(m.id, interval));
      }
    }
  }

  async function tick(): Promise<number> {
    const now = services.now();
    await rephaseOverdue(now);
    const free = maxInFlight - inFlight.size;
    if (free <= 0) return 0;
    const claimed = await monitorsRepo(db).claimDue(owner, now, now + lookaheadMs, Math.min(free, claimBatch), leaseMarginMs);
    const giveBack: string[] = [];
    let launched = 0;
    const over = stretch && claimed.length > 0 ? await stretch.current() : null;
    for (const m of claimed) {
      const cap = await capOf(m.company_id);
      if (inFlight.has(m.id) || (queuedPerCompany.get(m.company_id) ?? 0) >= cap * 4) giveBack.push(m.id);
      else {
        const factor = (m.destination_host && over?.get(m.destination_host)) || 1;
        // Its next slot moves from one interval to `factor` intervals after this one.
        if (factor > 1) await monitorsRepo(db).setNextDue(m.id, m.next_due_at + Math.round(m.interval_seconds * 1000 * (factor - 1)));
        launch(m, cap, factor);
        launched++;
      }
    }
    // A company with a long line: back to the queue, due again shortly (not skipped).
    await monitorsRepo(db).releaseLeases(giveBack, owner, now + 200);
    return launched;
  }

  /**
   * The pause before the next claim, at a random point around tickMs. With a fixed period the
   * ticks of engines sharing a database lock in phase, and the one ticking just before the other
   * claims almost everything entering the lookahead (one of two workers ran 10 % of the checks);
   * a random point each time gives every engine the same chance at each due check.
   */
  const nextTick = () => Math.round(tickMs * (0.5 + Math.random()));

  function arm(delay: number): void {
    if (!running) return;
    if (timer) clearTimeout(timer);
    timer = setTimeout(() => {
      timer = undefined;
      if (!running) return;
      if (ticking) return arm(nextTick());
      ticking = tick()
        .then((n) => arm(n >= claimBatch ? 0 : nextTick()))
        .catch((e: unknown) => {
          log(`engine: tick failed: ${loggableError(e)}`);
          arm(tickMs * 4);
        })
        .finally(() => {
          ticking = undefined;
        });
    }, delay);
  }

  return {
    owner,
    stats,
    start() {
      if (running) return;
      running = true;
      loopDelay.enable();
      canary?.start();
      arm(0);
    },
    async stop() {
      running = false;
      stopping = true;
      if (timer) clearTimeout(timer);
      const canaryStopped = canary?.stop(); // a probe under way ends within its own deadline, meanwhile
      await ticking;
      // Checks not started yet go back at once; running ones finish (bounded by their deadline)
      // and are written, so nothing a target saw is lost.
      // A slow target (time-outs go up to 120 s) must not hold the process past its stop grace:
      // after stopGraceMs the rest are abandoned unwritten and their leases handed back.
      const giveBack = [...inFlight.entries()].filter(([, f]) => !f.started).map(([id]) => id);
      for (const id of giveBack) inFlight.get(id)!.abort.abort();
      const grace = setTimeout(() => {
        for (const [id, f] of inFlight)
          if (!f.abort.signal.aborted) {
            giveBack.push(id);
            f.abort.abort();
          }
      }, stopGraceMs);
      await Promise.allSettled([...inFlight.values()].map((f) => f.done));
      clearTimeout(grace);
      await monitorsRepo(db)
        .releaseLeases(giveBack, owner, services.now())
        .catch(() => {});
      await flush();
      await canaryStopped;
      loopDelay.disable();
    },
    poke() {
      if (running && !ticking) arm(0);
    },
    async runDueNow() {
      const n = await tick();
      await Promise.allSettled([...inFlight.values()].map((f) => f.done));
      await flush();
      return n;
    },
    flush,
    ...(canary ? { probeCanary: canary.probe } : {}),
    eventLoopDelayP99: () => loopDelay.percentile(99) / 1e6,
  };
}

/** A checker that fails at once with the error of a credential that does not open. */
function unreadable(error: string): Checker {
  return async () => failed(error);
}
