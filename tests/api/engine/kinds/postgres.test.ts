// postgres monitors against a real PostgreSQL started on loopback (with a password, so a wrong one
// is refused) and hostile fake servers, on both databases of the platform: up, wrong password,
// another value, a slow query, a writing query, garbage, silence and endless answers; the
// password sealed in the stored row, never in the view, kept by an update that leaves it out,
// and a clear failure when it was sealed with another key.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Ctx } from '../../../../src/server/domain/context.ts';
import { createMonitor, getMonitor, updateMonitor } from '../../../../src/server/domain/monitors/service.ts';
import { testMonitor } from '../../../../src/server/domain/monitors/test-now.ts';
import { monitorsRepo } from '../../../../src/server/db/repositories/monitors-repo.ts';
import { seal, UNREADABLE_SECRET } from '../../../../src/server/engine/kinds/secret-box.ts';
import { DB_KINDS } from '../../../support/test-db.ts';
import { startPgCluster, type PgCluster } from '../../../support/pg-cluster.ts';
import { startHostileServer, type HostileServer } from '../../../support/kind-servers/hostile.ts';
import { engineServices, seedTenant } from '../support.ts';
import { kindEngineWorld } from './engine-world.ts';

const PASSWORD = 'pg-s3cret-Tr0ub4dor';

let target: PgCluster;
let hostile: Record<'garbage' | 'silent' | 'endless', HostileServer>;
let port: number;

beforeAll(async () => {
  target = await startPgCluster({ password: PASSWORD });
  port = Number(new URL(target.url).port);
  const admin = new pg.Client({ connectionString: target.url });
  await admin.connect();
  await admin.query('CREATE SEQUENCE counter');
  await admin.end();
  hostile = {
    garbage: await startHostileServer('garbage'),
    silent: await startHostileServer('silent'),
    // An authentication request announcing a 2 GB message, then data without end.
    endless: await startHostileServer('endless', { first: Buffer.from([0x52, 0x7f, 0xff, 0xff, 0xff]) }),
  };
});
afterAll(async () => {
  target?.stop();
  await Promise.all(Object.values(hostile ?? {}).map((h) => h.close()));
});

describe.each(DB_KINDS)('postgres monitors on %s', (kind) => {
  const w = kindEngineWorld(kind, 'postgres');
  const { create, settled } = w;
  const url = (password = PASSWORD, p = port) => `postgres://postgres:${encodeURIComponent(password)}@127.0.0.1:${p}/postgres`;

  it('logs in, runs the query and compares its value; the password is sealed in the row and never shown', async () => {
    const m = await create('pg up', { url: url(), db_query: 'SELECT 41 + 1', db_expected: '42' });
    expect(m.url).toBe(`postgres://postgres@127.0.0.1:${port}/postgres`);
    expect(m.password).toBe('(hidden)');
    expect((await getMonitor(w.viewerCtx, m.id)) as Record<string, unknown>).toMatchObject({ password: '(hidden)' });
    const up = await settled(m.id, 'operational');
    expect(up.last_error).toBeNull();
    const row = await monitorsRepo(w.services.db).findById(m.id, null);
    expect(row!.config).not.toContain(PASSWORD);
    expect(JSON.parse(row!.config).password).toMatch(/^sealed:v1:/);

    // An update that leaves the password out keeps it; the check still logs in.
    await updateMonitor(w.ctx, m.id, { db_expected: '42', name: 'pg up again', password: '(hidden)' });
    expect(JSON.parse((await monitorsRepo(w.services.db).findById(m.id, null))!.config).password).toBe(JSON.parse(row!.config).password);
  });

  it('tests an edit with the stored password, which the form never holds', async () => {
    const m = await create('pg edited', { url: url() });
    const form = { name: 'pg edited', type: 'postgres', url: m.url, db_query: 'SELECT 2', db_expected: '2' } as never;
    expect(await testMonitor(w.ctx, form, m.id)).toMatchObject({ status: 'operational', error: null });
    expect(await testMonitor(w.ctx, form)).toMatchObject({ status: 'down', error: expect.stringMatching(/^Login failed/) });
    const other = await engineServices(kind);
    try {
      const stranger = (await seedTenant(other)).adminCtx;
      await expect(testMonitor({ ...stranger, services: w.services } as Ctx, form, m.id)).rejects.toMatchObject({ code: 'not_found' });
    } finally {
      await other.db.close();
    }
  });

  it('shows each phase in Test now', async () => {
    const r = await testMonitor(w.ctx, { name: 't', type: 'postgres', url: url(), timeout_seconds: 2 } as never);
    expect(r.status).toBe('operational');
    expect(r.timings).toMatchObject({
      dns: expect.any(Number),
      connect: expect.any(Number),
      ttfb: expect.any(Number),
      total: expect.any(Number),
    });
  });

  it('says a wrong password, another value, a slow query and a writing function plainly', async () => {
    const wrong = await create('pg wrong password', { url: url('nope') });
    const other = await create('pg other value', { url: url(), db_query: 'SELECT 7', db_expected: '8' });
    const slow = await create('pg slow', { url: url(), db_query: 'SELECT pg_sleep(5)', timeout_seconds: 1 });
    const writes = await create('pg writes', { url: url(), db_query: "SELECT nextval('counter')" });
    expect((await settled(wrong.id, 'down')).last_error).toBe('Login failed: wrong user name or password');
    expect((await settled(other.id, 'down')).last_error).toBe('Expected "8" but the query returned "7"');
    expect((await settled(slow.id, 'down')).last_error).toMatch(/^(The query did not finish within the time-out|Timed out after 1 s)$/);
    expect((await settled(writes.id, 'down')).last_error).toBe('The query tried to write: it runs read-only');
  });

  it('refuses obviously writing queries when the monitor is saved', async () => {
    for (const q of [
      'DELETE FROM t',
      'WITH d AS (DELETE FROM t RETURNING 1) SELECT 1',
      'SELECT 1; DROP TABLE t',
      'SELECT * INTO t2 FROM t',
    ])
      await expect(create('pg bad query', { url: url(), db_query: q })).rejects.toMatchObject({ fields: { db_query: expect.any(String) } });
    await expect(create('pg bad url', { url: 'mysql://db.example.com/app' })).rejects.toMatchObject({
      fields: { url: 'URL must start with postgres:// or postgresql://' },
    });
  });

  it('ends garbage, silence and endless answers as clear failures within the deadline', async () => {
    const at = (h: HostileServer) => `postgres://postgres@127.0.0.1:${h.port}/postgres`;
    const garbage = await create('pg garbage', { url: at(hostile.garbage) });
    const silent = await create('pg silent', { url: at(hostile.silent), timeout_seconds: 1 });
    const endless = await create('pg endless', { url: at(hostile.endless) });
    expect((await settled(garbage.id, 'down')).last_error).toBe('The server did not answer like PostgreSQL');
    expect((await settled(silent.id, 'down')).last_error).toBe('Timed out after 1 s');
    expect((await settled(endless.id, 'down')).last_error).toBe('The server sent more than 1 MB: the check stopped reading');
  });

  it('fails with a sentence, not a crash, when the stored password was sealed with another key', async () => {
    const m = await create('pg other key', { url: url() });
    await settled(m.id, 'operational');
    const row = (await monitorsRepo(w.services.db).findById(m.id, null))!;
    const config = { ...JSON.parse(row.config), password: seal(Buffer.alloc(32, 7), PASSWORD) };
    await monitorsRepo(w.services.db).update(m.id, row.company_id, { config: JSON.stringify(config), next_due_at: w.services.now() });
    expect((await settled(m.id, 'down')).last_error).toBe(UNREADABLE_SECRET);
  });
});

describe('postgres monitors without private targets', () => {
  it('refuses a loopback address when saved and when tested', async () => {
    const services = await engineServices('sqlite', { ALLOW_PRIVATE_TARGETS: 'false' });
    try {
      const { adminCtx } = await seedTenant(services);
      const base = { type: 'postgres', interval_seconds: 60, timeout_seconds: 2, is_public: false };
      await expect(
        createMonitor(adminCtx, { ...base, name: 'loopback', url: `postgres://postgres@127.0.0.1:${port}/postgres` } as never),
      ).rejects.toMatchObject({ fields: { url: expect.stringMatching(/not allowed|private|loopback/i) } });
      await expect(
        testMonitor(adminCtx, { ...base, name: 'named', url: `postgres://postgres@localhost:${port}/postgres` } as never),
      ).rejects.toMatchObject({ fields: { url: 'Target refused: localhost is a loopback name' } });
    } finally {
      await services.db.close();
    }
  });
});
