// The platform skeleton on both databases: probes, health, problem responses, headers.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DB_KINDS } from '../support/test-db.ts';
import { rawRequest, startTestApp, type TestApp } from '../support/test-app.ts';

describe.each(DB_KINDS)('foundation on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ db: kind });
  });
  afterAll(async () => t?.close());

  it('answers the probes and the diagnostic health call', async () => {
    const c = t.client();
    expect((await c.get('/livez')).body).toEqual({ status: 'ok' });
    expect((await c.get('/readyz')).body).toEqual({ status: 'ready' });
    const h = await c.get('/api/v1/health/');
    expect(h.status).toBe(200);
    expect(h.body).toEqual({ status: 'ok' });
    // the spec writes the path with its trailing slash; both forms answer
    expect((await c.get('/api/v1/health')).status).toBe(200);
  });

  it('is not ready once the database is gone', async () => {
    const other = await startTestApp({ db: kind });
    await other.services.db.close();
    const res = await fetch(`${other.baseUrl}/readyz`);
    expect(res.status).toBe(503);
    expect(res.headers.get('content-type')).toContain('application/problem+json');
    await other.app.close();
  });

  it('rejects unknown body properties with a problem naming them', async () => {
    const r = await t.client().post('/api/v1/auth/login', { email: 'a@b.co', password: 'x', role: 'super_admin' });
    expect(r.status).toBe(400);
    expect(r.headers.get('content-type')).toContain('application/problem+json');
    expect(r.body.detail).toBe("Invalid request body: unknown property 'role'");
  });

  it('rejects unknown query parameters, also on calls that declare none', async () => {
    const c = t.client();
    const none = await c.get('/api/v1/health/?verbose=1');
    expect(none.status).toBe(400);
    expect(none.body.detail).toBe("Invalid query: unknown property 'verbose'");
    const me = await c.get('/api/v1/auth/me?role=super_admin');
    expect(me.status).toBe(400);
    expect(me.body.detail).toBe("Invalid query: unknown property 'role'");
    const post = await c.post('/api/v1/auth/login?remember=true', { email: 'a@b.co', password: 'x' });
    expect(post.status).toBe(400);
    expect(post.body.detail).toBe("Invalid query: unknown property 'remember'");
    expect((await c.get('/api/v1/health/')).status).toBe(200);
  });

  it('rejects a missing required field and non-JSON bodies', async () => {
    const c = t.client();
    const missing = await c.post('/api/v1/auth/login', { email: 'a@b.co' });
    expect(missing.status).toBe(400);
    expect(missing.body.detail).toBe('Password is required.');
    expect(missing.body.errors).toEqual({ password: 'Password is required.' });
    const form = await c.request('POST', '/api/v1/auth/login', {
      raw: 'email=a',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(form.status).toBe(415);
    const broken = await c.request('POST', '/api/v1/auth/login', { raw: '{"email":', headers: { 'content-type': 'application/json' } });
    expect(broken.status).toBe(400);
    expect(broken.body.detail).toBe('The request body is not valid JSON.');
  });

  it('answers unknown API routes with a problem 404', async () => {
    const r = await t.client().get('/api/v1/nope');
    expect(r.status).toBe(404);
    expect(r.body).toMatchObject({ status: 404, detail: 'No route GET /api/v1/nope' });
  });

  it('refuses cross-site state-changing requests', async () => {
    const r = await t
      .client()
      .post('/api/v1/auth/login', { email: 'a@b.co', password: 'x' }, { headers: { origin: 'https://evil.example' } });
    expect(r.status).toBe(403);
    expect(r.body.detail).toBe('Cross-site requests are not allowed.');
    const s = await t
      .client()
      .post('/api/v1/auth/login', { email: 'a@b.co', password: 'x' }, { headers: { 'sec-fetch-site': 'cross-site' } });
    expect(s.status).toBe(403);
  });

  it('refuses the API and /setup on hosts outside the product domain; probes answer on an IP address', async () => {
    const c = t.client();
    const detail = "Invalid subdomain: this server answers on localhost and its companies' subdomains only.";
    for (const host of [
      'evil.example.org',
      '127.0.0.1',
      '[::1]',
      '10.1.2.3',
      'bad_label.localhost',
      'a.b.localhost',
      'localhost.evil.org',
    ]) {
      for (const [method, path] of [
        ['GET', '/api/v1/auth/me'],
        ['POST', '/api/v1/auth/login'],
        ['GET', '/api/v1/public/public-status/acme'],
        ['GET', '/setup'],
        ['POST', '/setup'],
      ]) {
        const r = await c.request(method, path, { host, ...(method === 'POST' ? { body: { email: 'a@b.co', password: 'x' } } : {}) });
        expect(r.status, `${method} ${path} on ${host}`).toBe(400);
        expect(r.headers.get('content-type')).toContain('application/problem+json');
        expect(JSON.parse(r.text)).toMatchObject({ status: 400, code: 'invalid_host', detail });
      }
    }
    for (const host of ['127.0.0.1', '[::1]']) {
      expect((await c.get('/api/v1/health/', { host })).status, host).toBe(200);
      expect((await c.get('/api/v1/health', { host })).status, host).toBe(200);
    }
    expect((await c.get('/api/v1/health/', { host: 'evil.example.org' })).status).toBe(400);
    for (const host of ['evil.example.org', '127.0.0.1']) {
      expect((await c.get('/livez', { host })).status).toBe(200);
      expect((await c.get('/readyz', { host })).status).toBe(200);
    }
    // the main host, www, and any well-formed company subdomain pass on to the routes
    for (const host of ['localhost', 'acme.localhost', 'WWW.localhost']) {
      expect((await c.get('/api/v1/auth/me', { host })).status, host).toBe(401);
    }
    // unknown API routes too (a raw request: the contract harness expects 404 for those)
    const unknown = await rawRequest(`${t.baseUrl}/api/v1/nope`, 'GET', { host: 'evil.example.org' });
    expect(unknown.status).toBe(400);
    // a plain fetch by address (no Host header of ours) reaches the probes only
    expect((await fetch(`${t.baseUrl}/api/v1/health/`)).status).toBe(200);
    expect((await fetch(`${t.baseUrl}/api/v1/auth/me`)).status).toBe(400);
  });

  it('sends security headers on every response', async () => {
    const r = await t.client().get('/api/v1/health/');
    expect(r.headers.get('x-content-type-options')).toBe('nosniff');
    expect(r.headers.get('content-security-policy')).toContain("default-src 'none'");
    expect(r.headers.get('x-frame-options')).toBe('DENY');
  });
});
