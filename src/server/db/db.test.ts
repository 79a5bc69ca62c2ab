// The database layer on both engines: migrations, the repositories of section 3's entities,
// transactions, and data surviving a reopen.
import { afterEach, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { openDb, type Db } from './connect.ts';
import { migrateToLatest } from './migrate.ts';
import { companiesRepo } from './repositories/companies-repo.ts';
import { usersRepo } from './repositories/users-repo.ts';
import { flagsRepo } from './repositories/flags-repo.ts';
import { withTransaction, type DbScope } from './scope.ts';
import { isUniqueViolation } from './unique-violation.ts';
import { DB_KINDS, freshDb, newDatabaseLocation } from '../../../tests/support/test-db.ts';

const opened: Db[] = [];
afterEach(async () => {
  while (opened.length)
    await opened
      .pop()!
      .close()
      .catch(() => {});
});

async function db(kind: 'sqlite' | 'postgres') {
  const d = await freshDb(kind);
  opened.push(d);
  return d;
}

describe.each(DB_KINDS)('database on %s', (kind) => {
  it('applies every migration once, and again is a no-op', async () => {
    const loc = await newDatabaseLocation(kind);
    const d = loc.file ? openDb({ kind: 'sqlite', file: loc.file }) : openDb({ kind: 'postgres', url: loc.url! });
    opened.push(d);
    const first = await migrateToLatest(d);
    expect(first[0]).toBe('0001_foundation_identity');
    expect(first).toContain('0100_monitoring_core');
    expect(await migrateToLatest(d)).toEqual([]);
  });

  it('stores a company with the spec defaults', async () => {
    const d = await db(kind);
    const repo = companiesRepo(d);
    await repo.insert({ id: 'c1', name: 'Acme', email: 'ops@acme.test', subdomain: 'acme', created_at: 1, updated_at: 1 });
    const c = await repo.findBySubdomain('ACME');
    expect(c).toMatchObject({
      name: 'Acme',
      primary_color: '#007bff',
      secondary_color: '#6c757d',
      is_active: true,
      max_users: 10,
      max_workers: 50,
      threat_feed_enabled: false,
      plan: 'starter',
      status: 'active',
    });
    expect(JSON.parse(c!.services)).toEqual({ monitor: true, security: true, data_breach: false });
    expect(typeof c!.created_at).toBe('number');
  });

  it('keeps subdomains and user emails unique', async () => {
    const d = await db(kind);
    const companies = companiesRepo(d);
    await companies.insert({ id: 'c1', name: 'A', email: 'a@a.test', subdomain: 'dup', created_at: 1, updated_at: 1 });
    const taken = await companies
      .insert({ id: 'c2', name: 'B', email: 'b@b.test', subdomain: 'dup', created_at: 1, updated_at: 1 })
      .catch((e) => e);
    expect(isUniqueViolation(taken)).toBe(true);
    expect(isUniqueViolation(new Error('connection refused'))).toBe(false);
    const users = usersRepo(d);
    const u = { full_name: 'X', user_type: 1, company_id: null, password_hash: 'h', created_at: 1, updated_at: 1 };
    await users.insert({ ...u, id: 'u1', email: 'Same@Example.com' });
    await expect(users.insert({ ...u, id: 'u2', email: 'same@example.com' })).rejects.toThrow();
    expect((await users.findByEmail('SAME@example.com'))?.id).toBe('u1');
  });

  it('deletes a company with its users (cascade)', async () => {
    const d = await db(kind);
    await companiesRepo(d).insert({ id: 'c1', name: 'A', email: 'a@a.test', subdomain: 'a', created_at: 1, updated_at: 1 });
    const users = usersRepo(d);
    await users.insert({
      id: 'u1',
      email: 'u1@a.test',
      full_name: 'U',
      user_type: 2,
      company_id: 'c1',
      password_hash: 'h',
      created_at: 1,
      updated_at: 1,
    });
    expect(await users.countByCompany('c1')).toBe(1);
    expect(await companiesRepo(d).delete('c1')).toBe(1);
    expect(await users.findById('u1')).toBeUndefined();
  });

  it('rolls a failed transaction back whole', async () => {
    const d = await db(kind);
    const failure = withTransaction(d, async (tx) => {
      await flagsRepo(tx).upsert('A', true, 1, 'u1');
      await tx.k.insertInto('feature_flags').values({ name: 'A', enabled: false, updated_at: 1, updated_by: null }).execute();
    });
    await expect(failure).rejects.toThrow();
    expect(await flagsRepo(d).list()).toEqual([]);
  });

  it('commits a transaction, and a step given the transaction joins it', async () => {
    const d = await db(kind);
    const kinds: string[] = [];
    const step = (scope: DbScope) =>
      withTransaction(scope, async (tx) => {
        kinds.push(tx.kind);
        await flagsRepo(tx).upsert('B', true, 2, 'u1');
      });
    await withTransaction(d, async (tx) => {
      await flagsRepo(tx).upsert('A', true, 1, 'u1');
      await step(tx); // would throw if it opened a second transaction on the transaction
    });
    expect((await flagsRepo(d).list()).map((f) => f.name).sort()).toEqual(['A', 'B']);
    // the joined step rolls back with its caller
    await expect(
      withTransaction(d, async (tx) => {
        await step({ ...tx });
        throw new Error('caller fails');
      }),
    ).rejects.toThrow('caller fails');
    expect(kinds).toEqual([kind, kind]);
    expect((await flagsRepo(d).list()).map((f) => f.name).sort()).toEqual(['A', 'B']);
  });

  it('red_rollups keeps latency as one sketch column, not fixed buckets (migration 0202)', async () => {
    const d = await db(kind);
    const table = (await d.k.introspection.getTables()).find((t) => t.name === 'red_rollups')!;
    const names = table.columns.map((c) => c.name);
    expect(names).toContain('hist');
    expect(names.filter((n) => /^h\d+$/.test(n))).toEqual([]);
  });

  it('compresses the probe inbox with lz4 on PostgreSQL and keeps its rows whole (migration 0137)', async () => {
    const d = await db(kind);
    const payload = JSON.stringify({ label: 'eu', results: Array.from({ length: 300 }, (_, i) => ({ monitorId: `m${i}`, checkedAt: i })) });
    await d.k.insertInto('probe_result_inbox').values({ location: 1, received_at: 1, count: 300, results: payload }).execute();
    const row = await d.k.selectFrom('probe_result_inbox').select('results').executeTakeFirstOrThrow();
    expect(row.results).toBe(payload);
    if (kind !== 'postgres') return;
    const r = await sql<{ c: string | null }>`select pg_column_compression(results) as c from probe_result_inbox`.execute(d.k);
    expect(r.rows[0].c).toBe('lz4');
  });

  it('returns bigint millisecond columns as numbers', async () => {
    const d = await db(kind);
    const ms = 1795315071408;
    await d.k.insertInto('audit_events').values({ id: 'a1', event: 'user_login', timestamp: ms, source: 'server' }).execute();
    const row = await d.k.selectFrom('audit_events').select(['timestamp']).executeTakeFirstOrThrow();
    expect(row.timestamp).toBe(ms);
    const n = await sql<{ n: number }>`select count(*) as n from audit_events`.execute(d.k);
    expect(Number(n.rows[0].n)).toBe(1);
  });
});

describe('SQLite file', () => {
  it('keeps data across a reopen and runs in WAL mode', async () => {
    const loc = await newDatabaseLocation('sqlite');
    const a = openDb({ kind: 'sqlite', file: loc.file! });
    await migrateToLatest(a);
    await companiesRepo(a).insert({ id: 'c1', name: 'Persisted', email: 'p@p.test', subdomain: 'p', created_at: 1, updated_at: 1 });
    const mode = await sql<{ journal_mode: string }>`pragma journal_mode`.execute(a.k);
    expect(mode.rows[0].journal_mode).toBe('wal');
    await a.close();
    const b = openDb({ kind: 'sqlite', file: loc.file! });
    opened.push(b);
    expect(await migrateToLatest(b)).toEqual([]);
    expect((await companiesRepo(b).findById('c1'))?.name).toBe('Persisted');
  });
});
