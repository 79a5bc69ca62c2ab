// redis monitors against a real Redis (Debian's redis-server) started on loopback with a
// password, an ACL user and a TLS port, and hostile fake servers, on both databases of the
// platform: up (plain and TLS, with the certificate's facts), wrong password, no password, an ACL
// user, garbage, silence and a never-ending line; the password sealed in the row, never shown.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMonitor } from '../../../../src/server/domain/monitors/service.ts';
import { testMonitor } from '../../../../src/server/domain/monitors/test-now.ts';
import { monitorsRepo } from '../../../../src/server/db/repositories/monitors-repo.ts';
import { tlsTargets } from '../../../../src/server/domain/security/ssl-targets.ts';
import { DB_KINDS } from '../../../support/test-db.ts';
import { startRedisServer, type RedisServer } from '../../../support/redis-server.ts';
import { startHostileServer, type HostileServer } from '../../../support/kind-servers/hostile.ts';
import { makeCerts } from '../../../fixtures/targets/tls-targets.ts';
import { engineServices, seedTenant } from '../support.ts';
import { kindEngineWorld } from './engine-world.ts';

const PASSWORD = 'redis-s3cret-Pass';
let redis: RedisServer;
let caPem: string;
let hostile: Record<'garbage' | 'silent' | 'endless', HostileServer>;

beforeAll(async () => {
  const certs = makeCerts();
  caPem = certs.ca;
  redis = await startRedisServer({ password: PASSWORD, aclUser: { name: 'monitor', password: 'ping-only' }, tlsDir: certs.dir });
  hostile = {
    garbage: await startHostileServer('garbage'),
    silent: await startHostileServer('silent'),
    endless: await startHostileServer('endless'),
  };
});
afterAll(async () => {
  await redis?.stop();
  await Promise.all(Object.values(hostile ?? {}).map((h) => h.close()));
});

describe.each(DB_KINDS)('redis monitors on %s', (kind) => {
  const w = kindEngineWorld(kind, 'redis', { extraCa: () => [caPem] });
  const { create, settled } = w;

  it('logs in and gets PONG, plain and over TLS; the password is sealed and never shown', async () => {
    const plain = await create('redis up', { url: `redis://:${PASSWORD}@127.0.0.1:${redis.port}` });
    expect(plain).toMatchObject({ url: `redis://127.0.0.1:${redis.port}`, password: '(hidden)' });
    const secure = await create('redis tls', { url: `rediss://localhost:${redis.tlsPort}`, password: PASSWORD });
    const acl = await create('redis acl user', { url: `redis://monitor:ping-only@127.0.0.1:${redis.port}` });
    await settled(plain.id, 'operational');
    expect(await settled(secure.id, 'operational')).toMatchObject({ cert_subject: 'localhost', cert_expires_at: expect.any(String) });
    await settled(acl.id, 'operational');
    const row = (await monitorsRepo(w.services.db).findById(plain.id, null))!;
    expect(row.config).not.toContain(PASSWORD);
    // rediss:// is a TLS endpoint the security suite grades.
    expect((await tlsTargets(w.services.db, row.company_id)).map((t) => `${t.host}:${t.port}`)).toContain(`localhost:${redis.tlsPort}`);
  });

  it('shows the phases in Test now', async () => {
    const r = await testMonitor(w.ctx, {
      name: 't',
      type: 'redis',
      url: `rediss://localhost:${redis.tlsPort}`,
      password: PASSWORD,
    } as never);
    expect(r.status).toBe('operational');
    expect(r.timings).toMatchObject({
      dns: expect.any(Number),
      connect: expect.any(Number),
      tls: expect.any(Number),
      ttfb: expect.any(Number),
    });
  });

  it('says a wrong password and a missing one plainly', async () => {
    const wrong = await create('redis wrong', { url: `redis://127.0.0.1:${redis.port}`, password: 'nope' });
    const none = await create('redis none', { url: `redis://127.0.0.1:${redis.port}` });
    expect((await settled(wrong.id, 'down')).last_error).toBe('Login failed: wrong user name or password');
    expect((await settled(none.id, 'down')).last_error).toBe('The server requires a password');
  });

  it('ends garbage, silence and a never-ending line as clear failures within the deadline', async () => {
    const at = (h: HostileServer) => `redis://127.0.0.1:${h.port}`;
    const garbage = await create('redis garbage', { url: at(hostile.garbage) });
    const silent = await create('redis silent', { url: at(hostile.silent), timeout_seconds: 1 });
    const endless = await create('redis endless', { url: at(hostile.endless) });
    expect((await settled(garbage.id, 'down')).last_error).toBe('The server did not answer like Redis');
    expect((await settled(silent.id, 'down')).last_error).toBe('Timed out after 1 s');
    expect((await settled(endless.id, 'down')).last_error).toBe('The server sent a line longer than 8 KB');
  });
});

describe('redis monitors without private targets', () => {
  it('refuses a loopback address', async () => {
    const services = await engineServices('sqlite', { ALLOW_PRIVATE_TARGETS: 'false' });
    try {
      const { adminCtx } = await seedTenant(services);
      await expect(
        createMonitor(adminCtx, { name: 'loopback', type: 'redis', url: `redis://127.0.0.1:${redis.port}`, interval_seconds: 60 } as never),
      ).rejects.toMatchObject({ fields: { url: 'Target refused: 127.0.0.1 is a loopback address' } });
    } finally {
      await services.db.close();
    }
  });
});
