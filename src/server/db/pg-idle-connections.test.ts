// The PostgreSQL pool keeps its idle connections (connect.ts IDLE_TIMEOUT_MS): node-postgres's
// default closed them after 10 s idle, and the next call that needed a second connection paid a
// backend start and its prepared statements' parse and planning again (the probe ingest tail).
// The pool's idle timers are faked, so 10 minutes of idleness pass at once.
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { sql } from 'kysely';
import type { Db } from './connect.ts';
import { freshDb } from '../../../tests/support/test-db.ts';

describe('PostgreSQL idle connections', () => {
  let db: Db;
  afterEach(() => {
    vi.useRealTimers();
  });
  afterAll(async () => {
    await db?.close();
  });

  it('are kept open, not closed after 10 s idle, and serve the next calls', async () => {
    db = await freshDb('postgres', { migrate: false });
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const backend = () => sql<{ pid: number }>`select pg_backend_pid() as pid, pg_sleep(0.05)`.execute(db.k);
    // two calls at once: the pool opens a second connection
    const first = await Promise.all([backend(), backend()]);
    const pids = new Set(first.map((r) => r.rows[0].pid));
    expect(pids.size).toBe(2);
    vi.advanceTimersByTime(10 * 60_000);
    const again = await Promise.all([backend(), backend()]);
    expect(new Set(again.map((r) => r.rows[0].pid))).toEqual(pids);
    const open = await sql<{ n: number }>`select count(*)::int as n from pg_stat_activity where datname = current_database()`.execute(db.k);
    expect(open.rows[0].n).toBe(2);
  });
});
