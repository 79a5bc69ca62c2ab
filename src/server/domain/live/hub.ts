// The live console's fan-out (issue 13 item 7). Why a database poll and not an in-process bus:
// the engine may run in `npm run worker` processes and several web processes may share one
// PostgreSQL database, so a write seldom happens in the process that holds the browser's stream.
// Every writer already stamps its rows (monitors.updated_at on every check, incidents.updated_at,
// maintenance windows, notifications), so the hub reads those stamps: one round of three small
// queries per tick for all the companies and users this process streams to, however many tabs
// are open, and none while no tab is open. Each stream then gets only its own company's part
// (a super admin's global view gets every company's). A tick is 500 ms, well inside the 2 s the
// console promises, and costs a few index reads.
import type { DbScope } from '../../db/scope.ts';
import { liveRepo, type CompanyMarker, type LiveMonitorRow } from '../../db/repositories/live-repo.ts';

export const TICK_MS = 500;
/** Rows are re-read this far back: a writer stamps updated_at before its transaction commits. */
export const OVERLAP_MS = 2_000;
/** More changed monitors than this in one tick: the stream is told to reload instead. */
export const MAX_ROWS_PER_EVENT = 200;
const MAX_ROWS_PER_TICK = 5_000;

/** A monitor's live state as a console row shows it. */
export interface LiveMonitor {
  id: string;
  status: string;
  status_since: string | null;
  is_paused: boolean;
  last_checked_at: string | null;
  last_response_time: number | null;
  last_http_code: number | null;
}

export type LiveEvent =
  | { type: 'monitor'; data: { monitors: LiveMonitor[]; reload: boolean } }
  | { type: 'incident'; data: Record<string, never> }
  | { type: 'maintenance'; data: Record<string, never> }
  | { type: 'notifications'; data: { unread: number } };

export interface LiveSink {
  send(event: LiveEvent): void;
  /** The hub is stopping (server shutdown): end the response. */
  close(): void;
}

export interface LiveScope {
  userId: string;
  /** null: every company (a super admin's global view) */
  companyId: string | null;
}

interface Subscriber extends LiveScope {
  sink: LiveSink;
  /** The markers this stream last saw, by table; absent until its first tick (no event then) */
  seen: Map<string, string>;
}

const iso = (t: number | null) => (t === null ? null : new Date(t).toISOString());

function liveMonitor(r: LiveMonitorRow): LiveMonitor {
  return {
    id: r.id,
    status: r.is_paused ? 'paused' : r.status,
    status_since: iso(r.status_since),
    is_paused: r.is_paused,
    last_checked_at: iso(r.last_checked_at),
    last_response_time: r.last_response_time_ms,
    last_http_code: r.last_http_code,
  };
}

export class LiveHub {
  private readonly subscribers = new Set<Subscriber>();
  /** Monitor id -> the updated_at already sent, for rows inside the overlap window */
  private readonly sent = new Map<string, number>();
  /** Monitor id -> its last state seen ('status:paused'), to tell a change of state from a check */
  private readonly states = new Map<string, string>();
  private startedAt: number;
  private readonly now: () => number;
  private high: number;
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private closed = false;

  private readonly db: DbScope;
  private readonly log: (message: string) => void;

  constructor(db: DbScope, now: () => number, log: (message: string) => void = () => {}) {
    this.db = db;
    this.log = log;
    this.now = now;
    this.high = now();
    this.startedAt = this.high;
  }

  private forgetBefore(at: number): void {
    this.high = at;
    this.startedAt = at;
    this.sent.clear();
    this.states.clear();
  }

  streamsOf(userId: string): number {
    let n = 0;
    for (const s of this.subscribers) if (s.userId === userId) n++;
    return n;
  }

  /** Starts sending this scope's events to the sink; the returned function stops it. */
  subscribe(scope: LiveScope, sink: LiveSink): () => void {
    if (this.closed) {
      sink.close();
      return () => {};
    }
    // waking from idle: nothing before now is news (and reading it all back would be slow)
    if (this.subscribers.size === 0) this.forgetBefore(this.now());
    const sub: Subscriber = { ...scope, sink, seen: new Map() };
    this.subscribers.add(sub);
    this.schedule();
    return () => {
      this.subscribers.delete(sub);
    };
  }

  /** Ends every stream and stops polling (server shutdown). */
  async close(): Promise<void> {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    for (const s of this.subscribers) s.sink.close();
    this.subscribers.clear();
    await this.running;
  }

  private schedule(): void {
    if (this.timer || this.running || this.closed || this.subscribers.size === 0) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      this.running = this.tick()
        .catch((e: unknown) => this.log(`live: poll failed: ${e instanceof Error ? e.message : String(e)}`))
        .finally(() => {
          this.running = null;
          this.schedule();
        });
    }, TICK_MS);
    this.timer.unref();
  }

  private async tick(): Promise<void> {
    const subs = [...this.subscribers];
    if (subs.length === 0) return;
    const companies = subs.some((s) => s.companyId === null) ? null : [...new Set(subs.map((s) => s.companyId as string))];
    const users = [...new Set(subs.map((s) => s.userId))];
    const repo = liveRepo(this.db);
    const [rows, markers, notes] = await Promise.all([
      repo.monitorsChangedSince(this.high - OVERLAP_MS, companies, MAX_ROWS_PER_TICK),
      repo.companyMarkers(companies),
      repo.notificationMarkers(users),
    ]);
    if (this.closed) return;

    const changed = this.unsent(rows);
    const overflow = rows.length === MAX_ROWS_PER_TICK;
    const byCompany = new Map<string, LiveMonitorRow[]>();
    const stateChanged = new Set<string>();
    for (const r of changed) {
      const list = byCompany.get(r.company_id);
      if (list) list.push(r);
      else byCompany.set(r.company_id, [r]);
      if (this.changedState(r)) stateChanged.add(r.company_id);
    }
    const signatures = markerSignatures(markers);
    const unreadOf = new Map(notes.map((n) => [n.user_id, n]));

    for (const s of subs) {
      const mine = s.companyId === null ? changed : (byCompany.get(s.companyId) ?? []);
      const sig = (table: CompanyMarker['table']) => signatures(table, s.companyId);
      // a monitor changed state, was paused, resumed, archived or restored, added or removed: what is shown reloads
      const added = this.changedFor(s, 'monitors', sig('monitors'));
      const states = s.companyId === null ? stateChanged.size > 0 : stateChanged.has(s.companyId);
      if (mine.length > 0 || added || overflow) {
        const tooMany = mine.length > MAX_ROWS_PER_EVENT || overflow;
        const reload = tooMany || added || states;
        s.sink.send({ type: 'monitor', data: { monitors: tooMany ? [] : mine.map(liveMonitor), reload } });
      }
      if (this.changedFor(s, 'incidents', sig('incidents'))) s.sink.send({ type: 'incident', data: {} });
      if (this.changedFor(s, 'maintenance', sig('maintenance'))) s.sink.send({ type: 'maintenance', data: {} });
      const n = unreadOf.get(s.userId);
      // A new stream's first tick ends with its unread count (the header's bell), after the
      // markers above became its starting point: the console reloads what it shows then.
      const first = !s.seen.has('notifications');
      if (this.changedFor(s, 'notifications', n ? `${n.rows}:${n.unread}:${n.latest}` : '0') || first)
        s.sink.send({ type: 'notifications', data: { unread: n?.unread ?? 0 } });
    }
  }

  /** The rows not sent yet at this updated_at; remembers them and moves the read window on. */
  private unsent(rows: LiveMonitorRow[]): LiveMonitorRow[] {
    const fresh = rows.filter((r) => this.sent.get(r.id) !== r.updated_at);
    for (const r of fresh) {
      this.sent.set(r.id, r.updated_at);
      if (r.updated_at > this.high) this.high = r.updated_at;
    }
    for (const [id, at] of this.sent) if (at <= this.high - OVERLAP_MS) this.sent.delete(id);
    return fresh;
  }

  /**
   * Whether this row's status or pause differs from the last seen. A monitor not seen before
   * changed state if its status is newer than the hub (it had no write since then otherwise).
   */
  private changedState(r: LiveMonitorRow): boolean {
    // archiving or restoring moves a monitor out of or into the lists: like a state change
    const state = `${r.status}:${r.is_paused}:${r.archived_at === null ? 0 : 1}`;
    const before = this.states.get(r.id);
    this.states.set(r.id, state);
    return before === undefined ? (r.status_since ?? 0) > this.startedAt : before !== state;
  }

  /** Whether this stream's marker moved since its last tick (never on its first). */
  private changedFor(s: Subscriber, table: string, signature: string): boolean {
    const before = s.seen.get(table);
    s.seen.set(table, signature);
    return before !== undefined && before !== signature;
  }
}

/** A marker per table for one company, or for all of them (global view), as comparable text. */
function markerSignatures(markers: CompanyMarker[]): (table: CompanyMarker['table'], companyId: string | null) => string {
  const index = new Map<string, string>();
  const all = new Map<string, string[]>();
  for (const m of markers) {
    const text = `${m.rows}@${m.latest}`;
    index.set(`${m.table}:${m.company_id}`, text);
    const list = all.get(m.table) ?? [];
    list.push(`${m.company_id}/${text}`);
    all.set(m.table, list);
  }
  const global = new Map([...all].map(([table, list]) => [table, list.sort().join(';')]));
  return (table, companyId) => (companyId === null ? (global.get(table) ?? '') : (index.get(`${table}:${companyId}`) ?? ''));
}
