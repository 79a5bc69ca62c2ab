// Every error answer, the framework's own included, is a problem document with the security
// headers; odd input (a `next` with characters a Location header cannot carry) is no 500.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rawRequest, startTestApp, type TestApp } from '../../support/test-app.ts';
import { seedCompany, seedUser, signIn } from '../../support/fixtures.ts';
import { expectHardenedProblem, rawExchange } from './edge-socket.ts';

describe('error answers', () => {
  let t: TestApp;
  let acmeAdmin: Awaited<ReturnType<typeof seedUser>>;
  beforeAll(async () => {
    t = await startTestApp({ db: 'sqlite' });
    const acme = await seedCompany(t.services, { name: 'Acme', subdomain: 'acme' });
    acmeAdmin = await seedUser(t.services, { userType: 2, companyId: acme.id, email: 'boss@acme.example.com' });
  });
  afterAll(async () => t?.close());

  const host = (h = 'localhost') => ({ host: `${h}:${t.port}` });

  it('signs in through a handoff whose `next` holds characters a header cannot carry, and keeps the path', async () => {
    for (const [next, location] of [
      ['/monitors%E3%80%80x?q=%E3%80%80', '/monitors%E3%80%80x?q=%E3%80%80'],
      ['/caf%C3%A9 b', '/caf%C3%A9%20b'],
    ]) {
      const c = t.client();
      const r = await signIn(c, acmeAdmin);
      const code = new URL(r.body.redirect_to).searchParams.get('code')!;
      const h = await c.get(`/auth/handoff?code=${code}&next=${encodeURIComponent(decodeURIComponent(next))}`, { host: 'acme.localhost' });
      expect(h.status, next).toBe(303);
      expect(h.headers.get('location')).toBe(location);
      expect(h.headers.get('x-content-type-options')).toBe('nosniff');
      expect((await c.get('/api/v1/auth/me', { host: 'acme.localhost' })).status).toBe(200);
    }
    expect(t.errorLog).toEqual([]);
  });

  it('answers Fastify-detected errors (bad URL, overlong path parameter) as problems with security headers', async () => {
    const badUrl = await rawRequest(`${t.baseUrl}/api/v1/monitors/%E0%A4%A`, 'GET', host());
    expectHardenedProblem(badUrl.status, badUrl.headers, badUrl.text, 400);
    const longParam = await rawRequest(`${t.baseUrl}/api/v1/monitors/${'a'.repeat(300)}`, 'GET', host());
    expectHardenedProblem(longParam.status, longParam.headers, longParam.text, 414);
  });

  it('answers body errors (bad JSON, too large, wrong type) and unknown routes as problems with security headers', async () => {
    const json = { ...host(), 'content-type': 'application/json' };
    const broken = await rawRequest(`${t.baseUrl}/api/v1/auth/login`, 'POST', json, '{"email":');
    expectHardenedProblem(broken.status, broken.headers, broken.text, 400);
    const big = await rawRequest(`${t.baseUrl}/api/v1/auth/login`, 'POST', json, `{"email":"${'a'.repeat(1024 * 1024 + 10)}"}`);
    expectHardenedProblem(big.status, big.headers, big.text, 413);
    const form = await rawRequest(
      `${t.baseUrl}/api/v1/auth/login`,
      'POST',
      { ...host(), 'content-type': 'application/x-www-form-urlencoded' },
      'a=b',
    );
    expectHardenedProblem(form.status, form.headers, form.text, 415);
    const unknown = await rawRequest(`${t.baseUrl}/api/v1/nope`, 'GET', host());
    expectHardenedProblem(unknown.status, unknown.headers, unknown.text, 404);
  });

  it('answers errors found before routing (oversized headers, malformed requests) as problems with security headers', async () => {
    const huge = await rawExchange(t.port, `GET /api/v1/health/ HTTP/1.1\r\nHost: localhost\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`);
    expectHardenedProblem(huge.status, huge.headers, huge.body, 431);
    const longUri = await rawExchange(t.port, `GET /api/v1/health/?${'a'.repeat(20_000)} HTTP/1.1\r\nHost: localhost\r\n\r\n`);
    expect([414, 431]).toContain(longUri.status);
    expectHardenedProblem(longUri.status, longUri.headers, longUri.body, longUri.status);
    const garbage = await rawExchange(t.port, 'NOT A REQUEST\r\n\r\n');
    expectHardenedProblem(garbage.status, garbage.headers, garbage.body, 400);
  });
});
