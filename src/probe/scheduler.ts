// Runs the location's assignments on their intervals: each monitor at a stable offset within its
// interval (phaseOffsetMs, as the engine does), so a probe's checks spread out instead of starting
// in lockstep. Due checks sit in a min-heap with one timer for the earliest; each runs through its
// kind's checker under the engine's deadline (engine/checkers/run.ts). A check that starts more
// than an interval late skips to its next slot. The lag (start minus due time) and the checks
// done feed the figures sent with each batch.
import { phaseOffsetMs } from '../lib/phase-offset.ts';
import { runChecker } from '../server/engine/checkers/run.ts';
import { failed, type CheckEnv, type CheckOutcome } from '../server/engine/checkers/types.ts';
import { openSecrets } from '../server/engine/kinds/secret-box.ts';
import { KINDS } from '../server/engine/kinds/index.ts';
import type { Assignment } from './wire.ts';
import type { RunFigures } from './run-figures.ts';

type Kind = keyof typeof KINDS;

/** Checks running at once; more wait their turn (and show as lag). */
const MAX_IN_FLIGHT = 2048;

interface Entry {
  a: Assignment;
  due: number;
  /** bumped when the monitor is changed or removed: a heap entry of an older generation is stale */
  gen: number;
}

export interface Figures {
  checksPerSecond: number;
  lagP99: number;
}

export class ProbeScheduler {
  private readonly monitors = new Map<string, Entry>();
  private heap: Array<{ id: string; due: number; gen: number }> = [];
  private timer: NodeJS.Timeout | undefined;
  private inFlight = new Set<AbortController>();
  private waiting: Array<() => void> = [];
  private stopped = false;
  private lags: number[] = [];
  private checks = 0;
  private windowStart = Date.now();

  /**
   * The location's slug, mixed into each monitor's offset: the locations of one monitor check it
   * at different points of its interval rather than in lockstep (the built-in engine keeps the
   * monitor's own offset), so the quorum hears from some location more often than once an interval.
   */
  spreadKey = '';
  /** The whole run's figures (logged at stop) */
  figuresOfRun: RunFigures | null = null;
  /** Why this probe does not run a kind (a browser kind without Chromium), or null: such monitors are left to the location's other probes */
  refuses: (type: string) => string | null = () => null;
  /** Monitors refused so far: each is logged once */
  private readonly refusedIds = new Set<string>();

  private readonly env: () => CheckEnv;
  private readonly onResult: (monitorId: string, startedAt: number, outcome: CheckOutcome) => void;
  private readonly log: (line: string) => void;

  constructor(
    env: () => CheckEnv,
    onResult: (monitorId: string, startedAt: number, outcome: CheckOutcome) => void,
    log: (line: string) => void,
  ) {
    this.env = env;
    this.onResult = onResult;
    this.log = log;
  }

  get size(): number {
    return this.monitors.size;
  }

  ids(): IterableIterator<string> {
    return this.monitors.keys();
  }

  /** Replaces the whole set. */
  replace(all: Assignment[]): void {
    const keep = new Set(all.map((a) => a.id));
    for (const id of [...this.monitors.keys()]) if (!keep.has(id)) this.remove(id);
    for (const a of all) this.upsert(a);
  }

  upsert(a: Assignment): void {
    if (!(a.type in KINDS) || a.type === 'push') {
      this.log(`monitor ${a.id}: kind "${a.type}" is not run by this probe (upgrade it?)`);
      return;
    }
    const refused = this.refuses(a.type);
    if (refused) {
      if (!this.refusedIds.has(a.id)) this.log(`monitor ${a.id}: ${refused}`);
      this.refusedIds.add(a.id);
      this.monitors.delete(a.id);
      return;
    }
    const known = this.monitors.get(a.id);
    if (known && JSON.stringify(known.a) === JSON.stringify(a)) return;
    const gen = (known?.gen ?? 0) + 1;
    const due = this.nextSlot(a, Date.now());
    this.monitors.set(a.id, { a, due, gen });
    this.push({ id: a.id, due, gen });
  }

  remove(id: string): void {
    this.monitors.delete(id);
  }

  /** The figures since the last call: checks a second and the scheduling lag p99 (ms). */
  figures(now = Date.now()): Figures {
    const secs = Math.max(0.001, (now - this.windowStart) / 1000);
    const sorted = this.lags.sort((x, y) => x - y);
    const p99 = sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil(sorted.length * 0.99) - 1)] : 0;
    const f = { checksPerSecond: Math.round((this.checks / secs) * 100) / 100, lagP99: Math.round(p99) };
    this.lags = [];
    this.checks = 0;
    this.windowStart = now;
    return f;
  }

  start(): void {
    this.stopped = false;
    this.arm();
  }

  /** Stops starting checks and abandons those running (their results would come after the flush). */
  stop(): void {
    this.stopped = true;
    clearTimeout(this.timer);
    for (const c of this.inFlight) c.abort();
    for (const w of this.waiting) w();
    this.waiting = [];
  }

  private nextSlot(a: Assignment, after: number): number {
    const interval = a.interval_seconds * 1000;
    const offset = phaseOffsetMs(this.spreadKey ? `${a.id}@${this.spreadKey}` : a.id, interval);
    const base = Math.floor((after - offset) / interval) * interval + offset;
    return base >= after ? base : base + interval;
  }

  private push(item: { id: string; due: number; gen: number }): void {
    const h = this.heap;
    h.push(item);
    let i = h.length - 1;
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (h[p].due <= h[i].due) break;
      [h[p], h[i]] = [h[i], h[p]];
      i = p;
    }
    if (i === 0) this.arm();
  }

  private pop(): { id: string; due: number; gen: number } | undefined {
    const h = this.heap;
    const top = h[0];
    const last = h.pop();
    if (h.length > 0 && last) {
      h[0] = last;
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        const r = l + 1;
        let m = i;
        if (l < h.length && h[l].due < h[m].due) m = l;
        if (r < h.length && h[r].due < h[m].due) m = r;
        if (m === i) break;
        [h[m], h[i]] = [h[i], h[m]];
        i = m;
      }
    }
    return top;
  }

  private arm(): void {
    if (this.stopped) return;
    clearTimeout(this.timer);
    const next = this.heap[0];
    if (!next) return;
    this.timer = setTimeout(() => this.runDue(), Math.max(0, next.due - Date.now()));
  }

  private runDue(): void {
    const now = Date.now();
    while (!this.stopped && this.heap.length > 0 && this.heap[0].due <= now) {
      const item = this.pop();
      if (!item) break;
      const e = this.monitors.get(item.id);
      if (!e || e.gen !== item.gen) continue; // removed or changed since it was queued
      const interval = e.a.interval_seconds * 1000;
      let next = item.due + interval;
      if (next <= now) next = this.nextSlot(e.a, now); // more than an interval late: skip the missed slots
      e.due = next;
      this.push({ id: item.id, due: next, gen: item.gen });
      void this.run(e.a, item.due);
    }
    this.arm();
  }

  private async run(a: Assignment, due: number): Promise<void> {
    if (this.inFlight.size >= MAX_IN_FLIGHT) await new Promise<void>((r) => this.waiting.push(r));
    if (this.stopped) return;
    const started = Date.now();
    this.lags.push(started - due);
    this.figuresOfRun?.lag.add(started - due);
    const abort = new AbortController();
    this.inFlight.add(abort);
    try {
      // Credentials arrive opened; one the platform could not open arrives sealed and fails the check.
      const unopened = openSecrets(a.config, null).error;
      const outcome = await runChecker(
        unopened === null ? KINDS[a.type as Kind].check : async () => failed(unopened),
        {
          id: a.id,
          type: a.type as Kind,
          config: a.config,
          timeoutMs: a.timeout_seconds * 1000,
          lastPushAt: null,
          intervalMs: a.interval_seconds * 1000,
          createdAt: 0,
        },
        // Only this monitor's secrets, as the platform sent them with its assignment.
        {
          ...this.env(),
          secrets: async (names) => Object.fromEntries(names.flatMap((n) => (a.secrets?.[n] === undefined ? [] : [[n, a.secrets[n]]]))),
        },
        abort,
        (e) => this.log(`${a.type} checker threw: ${e.message}`),
      );
      if (this.stopped) return;
      this.checks++;
      this.onResult(a.id, started, outcome);
    } finally {
      this.inFlight.delete(abort);
      this.waiting.shift()?.();
    }
  }
}
