// Migration 0407 on a database that already holds monitors: each one's destination host is
// filled in from its config (the per-destination check budget counts it from then on), in the
// normalised spelling the service writes for new monitors.
import { Migrator, type Migration, type MigrationProvider } from 'kysely/migration';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { DB_KINDS, freshDb } from '../../../tests/support/test-db.ts';
import type { Db } from './connect.ts';
import { newMonitorRow } from './repositories/monitors-repo.ts';

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

describe.each(DB_KINDS)('migration 0407 on %s', (kind) => {
  let db: Db;
  afterEach(async () => db?.close());

  it("fills in every existing monitor's destination host", async () => {
    db = await freshDb(kind, { migrate: false });
    const migrator = new Migrator({ db: db.k, provider, allowUnorderedMigrations: true });
    expect((await migrator.migrateTo('0402_platform_throttle_hits')).error).toBeUndefined();
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
    const monitors: Array<[string, string, object]> = [
      ['web', 'http', { url: 'https://WWW.Example.COM./health' }],
      ['odd', 'http', { url: 'http://0x7f000001:8080/' }],
      ['v6', 'http', { url: 'http://[2001:DB8::1]/' }],
      ['db', 'tcp', { host: 'DB.example.net', port: 5432 }],
      ['cert', 'ssl', { host: 'shop.example.org', port: 443 }],
      ['dns-own', 'dns', { host: 'example.com', resolver: '[2001:db8::53]:5353' }],
      ['dns-platform', 'dns', { host: 'example.com', resolver: null }],
      ['beat', 'push', {}],
    ];
    for (const [id, type, config] of monitors)
      await k
        .insertInto('monitors')
        .values(
          newMonitorRow({
            id,
            company_id: 'co',
            name: id,
            type: type as never,
            config: JSON.stringify(config),
            is_public: false,
            interval_seconds: 60,
            timeout_seconds: 10,
            confirmations: 1,
            next_due_at: 1,
            created_at: 1,
          }) as never,
        )
        .execute();
    expect((await migrator.migrateTo('0407_platform_destination_budget')).error).toBeUndefined();
    const rows = await k.selectFrom('monitors').select(['id', 'destination_host']).orderBy('id').execute();
    expect(Object.fromEntries(rows.map((r) => [r.id, r.destination_host]))).toEqual({
      beat: null,
      cert: 'shop.example.org',
      db: 'db.example.net',
      'dns-own': '2001:db8::53',
      'dns-platform': null,
      odd: '127.0.0.1',
      v6: '2001:db8::1',
      web: 'www.example.com',
    });
  });
});
