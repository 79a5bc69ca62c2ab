// Two web processes on one PostgreSQL database (two servers on the same database here) share the
// sign-in, signup and password-reset throttles: failures or requests split between them count
// together, and the next attempt is refused by either. Each server once counted alone, so
// spreading a guessing attack over N processes multiplied its budget by N.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newDatabaseLocation } from '../../support/test-db.ts';
import { startTestApp, type TestApp } from '../../support/test-app.ts';
import { seedUser, TEST_PASSWORD } from '../../support/fixtures.ts';
import { PAIR_FAILURES_PER_HOUR } from '../../../src/server/domain/auth/throttle.ts';
import { sweepExpiredSessions } from '../../../src/server/domain/auth/sessions.ts';

describe('throttles shared by two servers on one PostgreSQL database', () => {
  let a: TestApp;
  let b: TestApp;
  let clock = Date.parse('2026-05-01T09:00:00Z');
  const now = () => clock;

  beforeAll(async () => {
    const location = await newDatabaseLocation('postgres');
    a = await startTestApp({ db: 'postgres', location, now, env: { TRUST_PROXY: 'true' } });
    b = await startTestApp({ db: 'postgres', location, now, env: { TRUST_PROXY: 'true' } });
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
  });

  const from = (ip: string) => ({ headers: { 'x-forwarded-for': ip } });

  it('counts sign-in failures made on either server: after N-1 on one and 1 on the other, both refuse the next attempt', async () => {
    const user = await seedUser(a.services, { userType: 1, email: 'target@example.com' });
    const wrong = { email: user.email, password: 'Wrong-guess-1' };
    for (let i = 0; i < PAIR_FAILURES_PER_HOUR - 1; i++) {
      const r = await a.client().post('/api/v1/auth/login', wrong, from('198.51.100.7'));
      expect(r.status, `attempt ${i + 1}: ${r.text}`).toBe(401);
      clock += 65_000; // past the growing wait between attempts
    }
    const last = await b.client().post('/api/v1/auth/login', wrong, from('198.51.100.7'));
    expect(last.status, last.text).toBe(401);
    clock += 65_000;
    for (const server of [a, b]) {
      const r = await server.client().post('/api/v1/auth/login', { email: user.email, password: TEST_PASSWORD }, from('198.51.100.7'));
      expect(r.status, r.text).toBe(429);
      expect(r.body.detail).toMatch(/^Too many failed sign-in attempts\. Please try again in \d+ minutes?\.$/);
      expect(Number(r.headers.get('retry-after'))).toBeGreaterThan(0);
    }
    // the owner at another address is not locked out, on either server
    expect((await b.client().post('/api/v1/auth/login', { email: user.email, password: TEST_PASSWORD }, from('203.0.113.9'))).status).toBe(
      200,
    );
    // an hour after the first failures the window has passed, and the sweep removes what no longer counts
    clock += 3_600_000;
    await sweepExpiredSessions(a.services, clock);
    expect(await a.services.db.k.selectFrom('throttle_hits').select('scope').where('scope', 'like', 'login-%').execute()).toEqual([]);
    expect((await a.client().post('/api/v1/auth/login', { email: user.email, password: TEST_PASSWORD }, from('198.51.100.7'))).status).toBe(
      200,
    );
  });

  it('counts password-reset requests from one address on both servers together (30 an hour)', async () => {
    for (let i = 0; i < 30; i++) {
      const server = i % 2 === 0 ? a : b;
      const r = await server.client().post('/api/v1/auth/forgot-password', { email: `nobody${i}@example.com` }, from('192.0.2.50'));
      expect(r.status, `request ${i + 1}: ${r.text}`).toBe(202);
    }
    for (const server of [a, b]) {
      const r = await server.client().post('/api/v1/auth/forgot-password', { email: 'one-more@example.com' }, from('192.0.2.50'));
      expect(r.status).toBe(429);
      expect(r.body.detail).toMatch(/^Too many password reset requests\./);
    }
  });

  it('counts signups from one address on both servers together (20 an hour)', async () => {
    for (let i = 0; i < 20; i++) {
      const server = i < 19 ? a : b;
      const r = await server
        .client()
        .post('/api/v1/auth/signup', { name: 'Flood', email: `flood${i}@example.com`, password: 'Long-enough-1' }, from('192.0.2.60'));
      expect(r.status, `signup ${i + 1}: ${r.text}`).toBe(202);
    }
    for (const server of [a, b]) {
      const r = await server
        .client()
        .post('/api/v1/auth/signup', { name: 'Flood', email: 'flood-last@example.com', password: 'Long-enough-1' }, from('192.0.2.60'));
      expect(r.status).toBe(429);
    }
  });
});
