// The inbox of probe results (migration 0126): a delivery call lands what it took here in one short
// transaction and answers; the drainer stores it. Storing a result is the heavy part (each
// location's state machine, the quorum verdict, rollups, incidents and alerts: about 0.12 ms a
// result on SQLite), and on SQLite it runs on the process's one thread: a call that stored its
// 1,000 results before answering took 291 ms at the median under a loaded status page, waiting
// behind the page's requests between its chunks. Now a call costs its id claim and one insert.
//
// The drainer takes the oldest row and stores its results in one transaction that also deletes the
// row, so each row is stored exactly once, in the order taken; a turn of the event loop between
// rows lets requests through. A call kicks it in its process; the probe-inbox job sweeps what a
// stopped process left. On PostgreSQL the platform drains in a thread of its own
// (services.probeInboxDrainer, jobs/probe-drain.ts), so the status page keeps its event loop.
import { probeInboxRepo } from '../../db/repositories/probe-inbox-repo.ts';
import { withTransaction } from '../../db/scope.ts';
import type { CheckOutcome } from '../../engine/checkers/types.ts';
import { type PendingResult, writeBatch } from '../../engine/result-writer.ts';
import { checksTotal } from '../../metrics/platform.ts';
import type { ProbeCheckCount, Services } from '../context.ts';

/**
 * Results a row holds at most: one drainer transaction stores one row. On SQLite the store runs on
 * the main thread, so a row is a pause of every request: 100 results, about 18 ms of CPU. On
 * PostgreSQL the database's work does not hold the event loop, and bigger transactions cost less
 * a result (statements, round trips, index work shared by more rows): measured with
 * bench:probe-drain (5 locations x 5,000 monitors, CPU of node + the PostgreSQL backends per
 * result) 100: 228 + 320 µs; 500: 169 + 178 µs; 1,000: 167 + 155 µs. 500 keeps most of the gain
 * with transactions half as long as a whole delivery call.
 */
export const INBOX_ROW_RESULTS: Record<'sqlite' | 'postgres', number> = { sqlite: 100, postgres: 500 };

/** A result as the inbox keeps it */
interface InboxResult {
  monitorId: string;
  companyId: string;
  checkedAt: number;
  /** the monitor's type (checks_total's kind label) */
  kind: string;
  /** Without its screenshots: those travel as `shots` */
  outcome: CheckOutcome;
  /**
   * A browser result's screenshots as the probe sent them, in base64 (a Buffer's own JSON is a
   * list of numbers, four times the size): made bytes only when the row is stored.
   */
  shots?: Array<{ index: number; png: string }>;
}

interface InboxPayload {
  /** the location's label of checks_total */
  label: string;
  results: InboxResult[];
}

/** One inbox row's JSON */
export const inboxPayload = (label: string, results: InboxResult[]) => JSON.stringify({ label, results } satisfies InboxPayload);

/** The rows for results a call took (in transactions of the caller: with the ids claimed). */
export function inboxRows(kind: 'sqlite' | 'postgres', location: number, label: string, results: InboxResult[], now: number) {
  const rows = [];
  const size = INBOX_ROW_RESULTS[kind];
  for (let i = 0; i < results.length; i += size) {
    const part = results.slice(i, i + size);
    rows.push({ location, received_at: now, count: part.length, results: inboxPayload(label, part) });
  }
  return rows;
}

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * Stores the inbox's rows, oldest first, until it is empty or `stop` says so (asked between rows:
 * a stopping drain thread leaves the rest to the next start's sweep); answers the results stored.
 */
export async function drainInbox(services: Services, stop: () => boolean = () => false): Promise<number> {
  if (!services.monitorIncidents) throw new Error('probe inbox: services have no monitorIncidents (services.ts wires them)');
  const incidents = services.monitorIncidents;
  let stored = 0;
  while (!stop()) {
    const now = services.now();
    const taken = await withTransaction(services.db, async (tx) => {
      const row = await probeInboxRepo(tx).takeOldest();
      if (!row) return null;
      const payload = JSON.parse(row.results) as InboxPayload;
      const pending: PendingResult[] = payload.results.map((r) => ({
        monitorId: r.monitorId,
        companyId: r.companyId,
        checkedAt: r.checkedAt,
        outcome: r.shots?.length
          ? {
              ...r.outcome,
              detail: { ...r.outcome.detail, screenshots: r.shots.map((x) => ({ index: x.index, png: Buffer.from(x.png, 'base64') })) },
            }
          : r.outcome,
        leaseOwner: null,
        location: row.location,
      }));
      await writeBatch(tx, pending, now, incidents);
      return payload;
    });
    if (!taken) return stored;
    stored += taken.results.length;
    // Counted once committed, as the engine counts its own (metrics/platform.ts checks_total).
    countStored(services, taken);
    await nextTurn();
  }
  return stored;
}

/** checks_total for a stored row: here, or where the services say (the drain thread's go to the main thread). */
function countStored(services: Services, taken: InboxPayload): void {
  const counts = new Map<string, ProbeCheckCount>();
  for (const r of taken.results) {
    const key = `${r.kind}\n${r.outcome.status}`;
    const c = counts.get(key);
    if (c) c.n++;
    else counts.set(key, { kind: r.kind, status: r.outcome.status, n: 1 });
  }
  if (services.countProbeChecks) services.countProbeChecks(taken.label, [...counts.values()]);
  else countProbeChecksHere(taken.label, [...counts.values()]);
}

/** Adds stored probe checks to this thread's checks_total. */
export function countProbeChecksHere(label: string, counts: ProbeCheckCount[]): void {
  for (const c of counts) checksTotal.inc({ kind: c.kind, status: c.status, location: label }, c.n);
}

const draining = new WeakMap<Services, { again: boolean; done: Promise<void> }>();

/**
 * Starts this process's drainer unless it runs (then it goes round once more), without waiting:
 * a delivery call answers at once. A failure leaves its row for the next kick or the job.
 */
export function kickInbox(services: Services): void {
  if (services.probeInboxDrainer) {
    services.probeInboxDrainer.kick();
    return;
  }
  const running = draining.get(services);
  if (running) {
    running.again = true;
    return;
  }
  const state = { again: true, done: Promise.resolve() };
  state.done = (async () => {
    try {
      while (state.again) {
        state.again = false;
        await drainInbox(services);
      }
    } catch (e) {
      console.error('probe inbox: storing results failed; the probe-inbox job retries', e);
    } finally {
      draining.delete(services);
    }
  })();
  draining.set(services, state);
  if (!hooked.has(services)) {
    hooked.add(services);
    // Shutdown waits for the drain under way (its transaction) before the database closes.
    (services.onShutdown ??= []).unshift(() => inboxDrained(services));
  }
}

const hooked = new WeakSet<Services>();

/** The drain under way in this process, to wait for (tests, shutdown). */
export async function inboxDrained(services: Services): Promise<void> {
  if (services.probeInboxDrainer) await services.probeInboxDrainer.drained();
  else await draining.get(services)?.done;
}

/**
 * What the probe-inbox job sweeps (rows a stopped process left, a failed drain's): drained here
 * (answers the results stored), or kicked to the process's drainer elsewhere when rows wait (asked
 * only then, so the sweep never starts a drain thread that has nothing to do; answers 0: the
 * drainer's own work under load is not the sweep's to report).
 */
export async function sweepInbox(services: Services): Promise<number> {
  const drainer = services.probeInboxDrainer;
  if (!drainer) return drainInbox(services);
  if (!(await probeInboxRepo(services.db).waiting())) return 0;
  drainer.kick();
  await drainer.drained();
  return 0;
}
