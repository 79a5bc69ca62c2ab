// Boolean columns read as true/false through the repositories on both databases (the plugin of
// booleans.ts), whether a query selects every column, names them, aliases them in a join or is raw
// SQL; booleans written as values, sets and comparisons are stored as 0/1.
import { afterEach, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import type { Db } from './connect.ts';
import { companiesRepo } from './repositories/companies-repo.ts';
import { monitorsRepo, newMonitorRow } from './repositories/monitors-repo.ts';
import { alertChannelsRepo } from './repositories/alert-channels-repo.ts';
import { usersRepo } from './repositories/users-repo.ts';
import { refreshTokensRepo } from './repositories/refresh-tokens-repo.ts';
import { statusPageRepo } from './repositories/status-page-repo.ts';
import { DB_KINDS, freshDb } from '../../../tests/support/test-db.ts';

const opened: Db[] = [];
afterEach(async () => {
  while (opened.length) await opened.pop()!.close();
});

async function seeded(kind: 'sqlite' | 'postgres') {
  const db = await freshDb(kind);
  opened.push(db);
  await companiesRepo(db).insert({ id: 'co', name: 'Co', email: 'a@co.test', subdomain: 'co', slug: 'co', created_at: 1, updated_at: 1 });
  const monitor = (id: string, isPublic: boolean) =>
    newMonitorRow({
      id,
      company_id: 'co',
      name: id,
      type: 'http',
      config: '{"url":"https://example.com"}',
      is_public: isPublic,
      interval_seconds: 60,
      timeout_seconds: 10,
      confirmations: 2,
      next_due_at: 1000,
      created_at: 1,
    });
  await monitorsRepo(db).insert({ ...monitor('shown', true), is_critical: true });
  await monitorsRepo(db).insert(monitor('hidden', false));
  return db;
}

describe.each(DB_KINDS)('boolean columns on %s', (kind) => {
  it('reads a monitor’s flags as booleans, whole row or named columns', async () => {
    const db = await seeded(kind);
    const shown = await monitorsRepo(db).findById('shown', 'co');
    expect(shown).toMatchObject({ is_public: true, is_critical: true, is_paused: false });
    for (const v of [shown!.is_public, shown!.is_critical, shown!.is_paused]) expect(typeof v).toBe('boolean');
    const hidden = await monitorsRepo(db).findById('hidden', 'co');
    expect(hidden).toMatchObject({ is_public: false, is_critical: false, is_paused: false });

    const named = await statusPageRepo(db).publicMonitors('co');
    expect(named.map((m) => [m.id, m.is_paused, m.is_critical])).toEqual([['shown', false, true]]);
  });

  it('stores booleans as 0/1 in sets and comparisons', async () => {
    const db = await seeded(kind);
    await monitorsRepo(db).update('hidden', 'co', { is_paused: true, is_public: true });
    const stored = await sql<{
      is_paused: unknown;
      is_public: unknown;
    }>`select is_paused, is_public from monitors where id = 'hidden'`.execute(db.k);
    expect(stored.rows.map((r) => [Number(r.is_paused), Number(r.is_public)])).toEqual([[1, 1]]);
    const paused = await monitorsRepo(db).page('co', { limit: 10, offset: 0, sort: 'name', order: 'asc', status: 'paused' });
    expect(paused.rows.map((m) => [m.id, m.is_paused])).toEqual([['hidden', true]]);
    const publicOnes = await monitorsRepo(db).page('co', { limit: 10, offset: 0, sort: 'name', order: 'asc', isPublic: true });
    expect(publicOnes.rows.map((m) => m.id)).toEqual(['hidden', 'shown']);
  });

  it('reads a company, a channel and a joined, aliased flag as booleans; raw SQL rows too', async () => {
    const db = await seeded(kind);
    const company = await companiesRepo(db).findById('co');
    expect(company).toMatchObject({ is_active: true, threat_feed_enabled: false });
    expect(typeof company!.is_active).toBe('boolean');

    for (const [id, enabled] of [
      ['on', true],
      ['off', false],
    ] as const)
      await alertChannelsRepo(db).insert({
        id,
        company_id: 'co',
        name: id,
        type: 'webhook',
        config: '{}',
        secret: null,
        events: '[]',
        monitor_ids: null,
        min_severity: 'info',
        enabled,
        next_send_at: null,
        created_at: 1,
        updated_at: 1,
      });
    const channels = await alertChannelsRepo(db).list('co');
    expect(channels.map((c) => [c.id, c.enabled])).toEqual(
      expect.arrayContaining([
        ['on', true],
        ['off', false],
      ]),
    );
    expect((await alertChannelsRepo(db).enabledOf('co')).map((c) => c.id)).toEqual(['on']);

    await usersRepo(db).insert({
      id: 'u',
      email: 'u@co.test',
      full_name: 'U',
      user_type: 2,
      company_id: 'co',
      password_hash: 'x',
      created_at: 1,
      updated_at: 1,
    });
    await companiesRepo(db).update('co', { is_active: false });
    const state = await refreshTokensRepo(db).sessionState('u', 'no-family', 2);
    expect(state).toMatchObject({ is_active: true, company_active: false });
    expect(typeof state!.company_active).toBe('boolean');

    const page = await statusPageRepo(db).companyBySubdomain('co');
    expect(page?.is_active).toBe(false);
  });
});
