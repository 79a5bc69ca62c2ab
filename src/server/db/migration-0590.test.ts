// Migration 0590 on a database that already holds alert deliveries and their attempts: on
// SQLite it rebuilds both tables, and every row must come through with its attempts still
// attached (a plain DROP would cascade them away); afterwards a delivery may have no channel.
import { Migrator, type Migration, type MigrationProvider } from 'kysely/migration';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { DB_KINDS, freshDb } from '../../../tests/support/test-db.ts';
import type { Db } from './connect.ts';

const MIGRATIONS = path.join(import.meta.dirname, 'migrations');

const provider: MigrationProvider = {
  async getMigrations() {
    const out: Record<string, Migration> = {};
    for (const f of (await readdir(MIGRATIONS)).sort()) {
      if (!/^\d{4}_.*\.ts$/.test(f) || f.endsWith('.test.ts')) continue;
      out[f.replace(/\.ts$/, '')] = (await import(pathToFileURL(path.join(MIGRATIONS, f)).href)) as Migration;
    }
    return out;
  },
};

describe.each(DB_KINDS)('migration 0590 on %s', (kind) => {
  let db: Db;
  afterEach(async () => db?.close());

  it('keeps existing deliveries and their attempts, and lets a delivery go to a subscriber', async () => {
    db = await freshDb(kind, { migrate: false });
    const migrator = new Migrator({ db: db.k, provider, allowUnorderedMigrations: true });
    const before = await migrator.migrateTo('0500_alerts_outbox');
    expect(before.error).toBeUndefined();
    const k = db.k;
    await k
      .insertInto('companies')
      .values({
        id: 'co',
        name: 'Acme',
        email: 'a@acme.example',
        subdomain: 'acme',
        slug: 'acme',
        plan: 'starter',
        is_active: 1,
        max_users: 10,
        created_at: 1,
        updated_at: 1,
      } as never)
      .execute();
    await k
      .insertInto('alert_channels')
      .values({
        id: 'ch',
        company_id: 'co',
        name: 'Ops',
        type: 'webhook',
        config: '{}',
        secret: null,
        events: '[]',
        monitor_ids: null,
        min_severity: 'info',
        enabled: true,
        created_at: 1,
        updated_at: 1,
      })
      .execute();
    const delivery = {
      company_id: 'co',
      channel_id: 'ch',
      event: 'test',
      payload: '{}',
      state: 'delivered',
      attempts: 1,
      next_attempt_at: 1,
      retry_until: 2,
      lease_holder: null,
      lease_expires_at: null,
      last_error: null,
      created_at: 1,
      updated_at: 1,
    };
    await k
      .insertInto('alert_deliveries')
      .values([
        { id: 'd1', dedupe_key: 'k1', ...delivery },
        { id: 'd2', dedupe_key: 'k2', ...delivery },
      ] as never)
      .execute();
    await k
      .insertInto('alert_delivery_attempts')
      .values({ id: 'a1', delivery_id: 'd1', at: 1, status_code: 200, latency_ms: 5, error: null })
      .execute();

    const after = await migrator.migrateToLatest();
    expect(after.error).toBeUndefined();
    expect(
      (await k.selectFrom('alert_deliveries').select(['id', 'channel_id', 'subscriber_id']).orderBy('id').execute()).map((r) => ({ ...r })),
    ).toEqual([
      { id: 'd1', channel_id: 'ch', subscriber_id: null },
      { id: 'd2', channel_id: 'ch', subscriber_id: null },
    ]);
    expect((await k.selectFrom('alert_delivery_attempts').select(['id', 'delivery_id']).execute()).map((r) => ({ ...r }))).toEqual([
      { id: 'a1', delivery_id: 'd1' },
    ]);

    await k
      .insertInto('status_subscribers')
      .values({
        id: 's1',
        company_id: 'co',
        kind: 'email',
        email: 'r@example.com',
        webhook_url: null,
        secret: null,
        component_ids: null,
        state: 'confirmed',
        confirm_token_hash: null,
        confirm_expires_at: null,
        unsubscribe_nonce: 'n',
        created_at: 1,
        confirmed_at: 1,
        updated_at: 1,
      })
      .execute();
    await k
      .insertInto('alert_deliveries')
      .values({ id: 'd3', dedupe_key: 'k1', ...delivery, channel_id: null, subscriber_id: 's1' } as never)
      .execute();
    // One delivery per cause and subscriber.
    await expect(
      k
        .insertInto('alert_deliveries')
        .values({ id: 'd4', dedupe_key: 'k1', ...delivery, channel_id: null, subscriber_id: 's1' } as never)
        .execute(),
    ).rejects.toThrow();
    // Removing a subscriber takes its deliveries; removing a channel still takes its deliveries and their attempts.
    await k.deleteFrom('status_subscribers').where('id', '=', 's1').execute();
    await k.deleteFrom('alert_channels').where('id', '=', 'ch').execute();
    expect(await k.selectFrom('alert_deliveries').select('id').execute()).toEqual([]);
    expect(await k.selectFrom('alert_delivery_attempts').select('id').execute()).toEqual([]);
  });
});
