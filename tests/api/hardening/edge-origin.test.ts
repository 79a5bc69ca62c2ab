// State-changing requests: JSON or no body at all (a text/plain or form body is what a
// cross-site form can send without a preflight), and the Origin must be this host as the
// browser sees it, also behind a proxy that passes the Host without its port.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rawRequest, startTestApp, type TestApp } from '../../support/test-app.ts';
import { seedCompany, seedUser, signIn } from '../../support/fixtures.ts';

describe('state-changing requests', () => {
  let t: TestApp;
  let user: Awaited<ReturnType<typeof seedUser>>;
  beforeAll(async () => {
    t = await startTestApp({ db: 'sqlite' });
    user = await seedUser(t.services, { userType: 1, email: 'root@example.com' });
  });
  afterAll(async () => t?.close());

  it('refuses a text/plain, form or multipart body on bodyless calls, with or without Origin', async () => {
    const c = t.client();
    await signIn(c, user);
    for (const type of ['text/plain', 'text/plain;charset=UTF-8', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x']) {
      for (const origin of [{}, { origin: `http://localhost:${t.port}` }] as Array<Record<string, string>>) {
        for (const path of ['/api/v1/auth/logout', '/api/v1/auth/handoff', '/api/v1/auth/refresh-token']) {
          const r = await c.request('POST', path, { raw: 'x=1', headers: { 'content-type': type, ...origin } });
          expect(r.status, `${type} ${path} ${JSON.stringify(origin)}`).toBe(415);
          expect(r.body.code).toBe('unsupported_media_type');
        }
      }
    }
    // still signed in: none of them acted
    expect((await c.get('/api/v1/auth/me')).status).toBe(200);
  });

  it('takes a bodyless call with no body, or with a JSON one', async () => {
    const c = t.client();
    await signIn(c, user);
    const json = await c.request('POST', '/api/v1/auth/handoff', { raw: '{}', headers: { 'content-type': 'application/json' } });
    expect(json.status).toBe(200);
    const none = await c.request('POST', '/api/v1/auth/logout', { headers: { origin: `http://localhost:${t.port}` } });
    expect(none.status).toBe(200);
  });

  it('keeps refusing cross-site writes', async () => {
    const c = t.client();
    for (const headers of [
      { origin: 'https://evil.example' },
      { 'sec-fetch-site': 'cross-site' },
      { 'sec-fetch-site': 'same-site' },
      { origin: 'null' },
      { origin: `http://localhost:${t.port + 1}` },
    ] as Array<Record<string, string>>) {
      const r = await c.request('POST', '/api/v1/auth/logout', { headers });
      expect(r.status, JSON.stringify(headers)).toBe(403);
    }
  });
});

describe('behind a proxy that passes the Host without its port (PUBLIC_PORT)', () => {
  let t: TestApp;
  let user: Awaited<ReturnType<typeof seedUser>>;
  beforeAll(async () => {
    t = await startTestApp({ db: 'sqlite', env: { PUBLIC_PORT: '8080' } });
    user = await seedUser(t.services, { userType: 1, email: 'root@example.com' });
    const acme = await seedCompany(t.services, { name: 'Acme', subdomain: 'acme' });
    await seedUser(t.services, { userType: 2, companyId: acme.id, email: 'boss@acme.example.com' });
  });
  afterAll(async () => t?.close());

  const login = (host: string, origin: string, email = user.email) =>
    t.client().post('/api/v1/auth/login', { email, password: user.password }, { headers: { host, origin } });

  it('accepts the Origin of the configured public port and links to that port', async () => {
    const main = await login('localhost', 'http://localhost:8080');
    expect(main.status).toBe(200);
    const tenant = await login('acme.localhost', 'http://acme.localhost:8080', 'boss@acme.example.com');
    expect(tenant.status).toBe(200);
    const handedOver = await login('localhost', 'http://localhost:8080', 'boss@acme.example.com');
    expect(handedOver.body.redirect_to).toMatch(/^http:\/\/acme\.localhost:8080\/auth\/handoff\?code=/);
  });

  it('refuses other origins: another port, another scheme, another host', async () => {
    for (const origin of ['http://localhost:9090', 'https://localhost:8080', 'http://evil.example:8080', 'http://acme.localhost:8080']) {
      const r = await login('localhost', origin);
      expect(r.status, origin).toBe(403);
    }
  });

  it('still accepts an Origin equal to the Host it was given', async () => {
    const r = await rawRequest(
      `${t.baseUrl}/api/v1/auth/login`,
      'POST',
      { host: `localhost:${t.port}`, origin: `http://localhost:${t.port}`, 'content-type': 'application/json' },
      JSON.stringify({ email: user.email, password: user.password }),
    );
    expect(r.status).toBe(200);
  });
});
