// The result writer's one-statement state write: each monitor gets exactly its own patch (mixed
// shapes, nulls, fractional times), other monitors and other columns stay as they were.
import { afterEach, describe, expect, it } from 'vitest';
import type { Db } from '../connect.ts';
import { companiesRepo } from './companies-repo.ts';
import { monitorsRepo, newMonitorRow } from './monitors-repo.ts';
import { DB_KINDS, freshDb } from '../../../../tests/support/test-db.ts';

const opened: Db[] = [];
afterEach(async () => {
  while (opened.length) await opened.pop()!.close();
});

async function seeded(kind: 'sqlite' | 'postgres') {
  const db = await freshDb(kind);
  opened.push(db);
  await companiesRepo(db).insert({
    id: 'co',
    name: 'Co',
    email: 'a@co.test',
    subdomain: 'co',
    slug: 'co',
    plan: 'starter',
    created_at: 1,
    updated_at: 1,
  });
  for (const id of ['m1', 'm2', 'm3'])
    await monitorsRepo(db).insert(
      newMonitorRow({
        id,
        company_id: 'co',
        name: id,
        type: 'http',
        config: '{"url":"https://example.com"}',
        is_public: true,
        interval_seconds: 60,
        timeout_seconds: 10,
        confirmations: 2,
        next_due_at: 1000,
        created_at: 1,
      }),
    );
  await monitorsRepo(db).writeStates([{ id: 'm2', patch: { lease_owner: 'w1', lease_expires_at: 5000, last_error: 'old error' } }]);
  return db;
}

describe.each(DB_KINDS)('monitors state write on %s', (kind) => {
  it('writes each monitor its own patch in one call and leaves the rest', async () => {
    const db = await seeded(kind);
    await monitorsRepo(db).writeStates([
      {
        id: 'm1',
        patch: {
          status: 'operational',
          status_since: 2000,
          last_checked_at: 2000,
          last_response_time_ms: 12.5,
          last_http_code: 200,
          last_error: null,
          updated_at: 2001,
        },
      },
      {
        id: 'm2',
        patch: {
          status: 'down',
          pending_status: null,
          pending_count: 0,
          last_error: 'Connection refused',
          lease_owner: null,
          lease_expires_at: null,
          next_due_at: 62_000,
          updated_at: 2002,
        },
      },
    ]);
    const rows = await db.k.selectFrom('monitors').selectAll().orderBy('id').execute();
    const [m1, m2, m3] = rows;
    expect(m1).toMatchObject({
      status: 'operational',
      status_since: 2000,
      last_checked_at: 2000,
      last_response_time_ms: 12.5,
      last_http_code: 200,
      last_error: null,
      next_due_at: 1000,
      updated_at: 2001,
    });
    expect(m2).toMatchObject({
      status: 'down',
      last_error: 'Connection refused',
      lease_owner: null,
      lease_expires_at: null,
      next_due_at: 62_000,
      last_checked_at: null,
      updated_at: 2002,
    });
    expect(m3).toMatchObject({ status: 'unknown', last_checked_at: null, next_due_at: 1000, updated_at: 1 });
    expect(rows.map((r) => r.config)).toEqual(Array(3).fill('{"url":"https://example.com"}'));
  });

  it('refuses a column that is not check state', async () => {
    const db = await seeded(kind);
    await expect(monitorsRepo(db).writeStates([{ id: 'm1', patch: { config: '{}' } as never }])).rejects.toThrow(/config/);
  });
});
