// mysql monitors against a real MariaDB (Debian's mariadb-server) started on loopback, with TLS,
// and hostile fake servers, on both databases of the platform: up (plain and TLS), wrong
// password, another value, a slow query, a writing function, garbage, silence and an endless
// answer; the password sealed in the stored row and never shown.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testMonitor } from '../../../../src/server/domain/monitors/test-now.ts';
import { monitorsRepo } from '../../../../src/server/db/repositories/monitors-repo.ts';
import { DB_KINDS } from '../../../support/test-db.ts';
import { startMariaDbServer, type MariaDbServer } from '../../../support/mariadb-server.ts';
import { startHostileServer, type HostileServer } from '../../../support/kind-servers/hostile.ts';
import { makeCerts } from '../../../fixtures/targets/tls-targets.ts';
import { kindEngineWorld } from './engine-world.ts';

const PASSWORD = 'maria-s3cret-Pass';
let maria: MariaDbServer;
let caPem: string;
let hostile: Record<'garbage' | 'silent' | 'endless', HostileServer>;

beforeAll(async () => {
  const certs = makeCerts();
  caPem = certs.ca;
  maria = await startMariaDbServer({ tlsDir: certs.dir });
  maria.sql(
    [
      `CREATE USER 'monitor'@'%' IDENTIFIED BY '${PASSWORD}'`,
      'CREATE DATABASE shop',
      'CREATE TABLE shop.orders (id INT PRIMARY KEY)',
      'INSERT INTO shop.orders VALUES (1), (2), (3)',
      "GRANT SELECT, INSERT, EXECUTE ON shop.* TO 'monitor'@'%'",
    ].join('; '),
  );
  // A function that writes: a query calling it passes the validation, the READ ONLY transaction stops it.
  maria.sql(
    'DELIMITER //\nCREATE FUNCTION shop.bump() RETURNS INT MODIFIES SQL DATA BEGIN INSERT INTO shop.orders VALUES (FLOOR(10 + RAND() * 1000000)); RETURN 1; END//',
  );
  hostile = {
    garbage: await startHostileServer('garbage'),
    silent: await startHostileServer('silent'),
    // A handshake packet announcing 16 MB, then data without end.
    endless: await startHostileServer('endless', { first: Buffer.from([0xff, 0xff, 0xff, 0x00, 0x0a]) }),
  };
}, 60_000);
afterAll(async () => {
  await maria?.stop();
  await Promise.all(Object.values(hostile ?? {}).map((h) => h.close()));
});

describe.each(DB_KINDS)('mysql monitors on %s', (kind) => {
  const w = kindEngineWorld(kind, 'mysql', { timeoutSeconds: 3, extraCa: () => [caPem] });
  const { create, settled } = w;
  const url = (password = PASSWORD, query = '') => `mysql://monitor:${encodeURIComponent(password)}@127.0.0.1:${maria.port}/shop${query}`;

  it('logs in, runs the query and compares its value, plain and over TLS; the password is sealed', async () => {
    const plain = await create('maria up', { url: url(), db_query: 'SELECT COUNT(*) FROM orders', db_expected: '3' });
    expect(plain).toMatchObject({ url: `mysql://monitor@127.0.0.1:${maria.port}/shop`, password: '(hidden)' });
    const secure = await create('maria tls', { url: url(PASSWORD, '?ssl-mode=VERIFY_IDENTITY') });
    await settled(plain.id, 'operational');
    expect(await settled(secure.id, 'operational')).toMatchObject({ cert_subject: 'localhost' });
    const row = (await monitorsRepo(w.services.db).findById(plain.id, null))!;
    expect(row.config).not.toContain(PASSWORD);
  });

  it('shows each phase in Test now', async () => {
    const r = await testMonitor(w.ctx, { name: 't', type: 'mysql', url: url() } as never);
    expect(r.status).toBe('operational');
    expect(r.timings).toMatchObject({ dns: expect.any(Number), connect: expect.any(Number), ttfb: expect.any(Number) });
  });

  it('says a wrong password, another value, a slow query and a write plainly', async () => {
    const wrong = await create('maria wrong', { url: url('nope') });
    const other = await create('maria other', { url: url(), db_query: 'SELECT 7', db_expected: '8' });
    const slow = await create('maria slow', { url: url(), db_query: 'SELECT SLEEP(5)', timeout_seconds: 1 });
    const writes = await create('maria writes', { url: url(), db_query: 'SELECT bump()' });
    expect((await settled(wrong.id, 'down')).last_error).toBe('Login failed: wrong user name or password');
    expect((await settled(other.id, 'down')).last_error).toBe('Expected "8" but the query returned "7"');
    expect((await settled(slow.id, 'down')).last_error).toMatch(/^(The query did not finish within the time-out|Timed out after 1 s)$/);
    expect((await settled(writes.id, 'down')).last_error).toBe('The query tried to write: it runs read-only');
  });

  it('ends garbage, silence and an endless answer as clear failures within the deadline', async () => {
    const at = (h: HostileServer) => `mysql://monitor@127.0.0.1:${h.port}/shop`;
    const garbage = await create('maria garbage', { url: at(hostile.garbage) });
    const silent = await create('maria silent', { url: at(hostile.silent), timeout_seconds: 1 });
    const endless = await create('maria endless', { url: at(hostile.endless) });
    expect((await settled(garbage.id, 'down')).last_error).toBe('The server did not answer like MySQL');
    expect((await settled(silent.id, 'down')).last_error).toBe('Timed out after 1 s');
    expect((await settled(endless.id, 'down')).last_error).toBe('The server sent more than 1 MB: the check stopped reading');
  });
});
