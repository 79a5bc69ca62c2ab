// The client rules against a real loopback HTTP server: the server keeps a log of what reached it
// and answers per path according to each test's script.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createApiClient, detailOr, errorText, REQUEST_TIMEOUT_MS, RequestTimeoutError } from './client.ts';

type Reply = { status: number; body?: unknown; delayMs?: number; hang?: boolean; lines?: Array<{ afterMs: number; line: unknown }> };
type Script = (method: string, path: string, hits: number, body: string) => Reply;

let server: http.Server;
let base = '';
let log: Array<{ method: string; path: string; body: string }> = [];
let script: Script = () => ({ status: 200, body: {} });

beforeAll(async () => {
  server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      const path = (req.url ?? '').split('?')[0];
      log.push({ method: req.method ?? '', path, body });
      const hits = log.filter((l) => l.path === path).length;
      const r = script(req.method ?? '', path, hits, body);
      if (r.hang) return; // never answers
      if (r.lines) {
        // a streamed answer (application/x-ndjson): each line at its time after the headers
        res.writeHead(r.status, { 'content-type': 'application/x-ndjson' });
        for (const [i, l] of r.lines.entries())
          setTimeout(() => {
            res.write(`${JSON.stringify(l.line)}\n`);
            if (i === r.lines!.length - 1) res.end();
          }, l.afterMs);
        return;
      }
      setTimeout(() => {
        const problem = r.status >= 400;
        res.writeHead(r.status, { 'content-type': problem ? 'application/problem+json' : 'application/json' });
        res.end(JSON.stringify(r.body ?? (problem ? { title: 'Error', status: r.status, detail: `detail ${r.status}` } : { ok: true })));
      }, r.delayMs ?? 0);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
});

beforeEach(() => {
  log = [];
});

const hitsOf = (path: string) => log.filter((l) => l.path === path).length;

function client(extra: { tenantHost?: boolean; timeoutMs?: number } = {}) {
  const redirects: string[] = [];
  const sent: Request[] = [];
  const api = createApiClient({
    baseUrl: base,
    timeoutMs: extra.timeoutMs,
    fetch: (req) => {
      sent.push(req);
      return fetch(req);
    },
    loginPath: () => (extra.tenantHost ? '/company-login' : '/login'),
    redirect: (p) => redirects.push(p),
  });
  return { api, redirects, sent };
}

describe('the API client rules', () => {
  it('sends same-origin cookie credentials and JSON, and returns typed data', async () => {
    script = () => ({ status: 200, body: { id: 'u1', email: 'a@b.c', user_type: '1', company_id: null, full_name: 'A' } });
    const { api, sent } = client();
    const { data } = await api.GET('/api/v1/auth/me');
    expect(data?.email).toBe('a@b.c');
    expect(sent[0].credentials).toBe('same-origin');
    expect(sent[0].url).toBe(`${base}/api/v1/auth/me`);
  });

  it('times out after 30 s by default, and after the configured time', async () => {
    expect(REQUEST_TIMEOUT_MS).toBe(30_000);
    script = () => ({ status: 200, hang: true });
    const { api } = client({ timeoutMs: 150 });
    const started = Date.now();
    await expect(api.GET('/api/v1/health/')).rejects.toBeInstanceOf(RequestTimeoutError);
    expect(Date.now() - started).toBeGreaterThanOrEqual(140);
    // not the 30 s default; the room is for a loaded machine
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it('a streamed answer has the time-out to start answering, then lasts as long as the server writes', async () => {
    script = () => ({
      status: 200,
      lines: [
        { afterMs: 0, line: { type: 'step' } },
        { afterMs: 600, line: { type: 'result' } },
      ],
    });
    const { api } = client({ timeoutMs: 150 });
    const r = await api.POST('/api/v1/monitors/test', { body: {} as never, params: { query: { stream: true } }, parseAs: 'text' });
    expect(r.data).toBe('{"type":"step"}\n{"type":"result"}\n');
  });

  it('on 401 renews once while the other failing requests wait, then replays them all', async () => {
    // Each request's first attempt is refused, however late it reaches the server (four new
    // connections may open after the renewal went out); the replay is answered.
    script = (_method, path, hits) => {
      if (path === '/api/v1/auth/refresh-token') return { status: 200, body: {}, delayMs: 150 };
      return hits >= 2 ? { status: 200, body: [] } : { status: 401 };
    };
    const { api } = client();
    const results = await Promise.all([
      api.GET('/api/v1/notifications/'),
      api.GET('/api/v1/incidents/recent', { params: { query: { limit: 10 } } }),
      api.GET('/api/v1/admin/users'),
      api.PUT('/api/v1/notifications/preferences', { body: { email_enabled: false } }),
    ]);
    expect(results.map((r) => r.response.status)).toEqual([200, 200, 200, 200]);
    expect(hitsOf('/api/v1/auth/refresh-token')).toBe(1);
    for (const p of ['/api/v1/notifications/', '/api/v1/incidents/recent', '/api/v1/admin/users', '/api/v1/notifications/preferences']) {
      expect(hitsOf(p)).toBe(2);
    }
    // the replayed PUT carries its body again
    const puts = log.filter((l) => l.path === '/api/v1/notifications/preferences');
    expect(puts.map((p) => JSON.parse(p.body))).toEqual([{ email_enabled: false }, { email_enabled: false }]);
  });

  it('a replayed request that fails again with 401 is not retried a second time', async () => {
    script = (_m, path) => (path === '/api/v1/auth/refresh-token' ? { status: 200, body: {} } : { status: 401 });
    const { api } = client();
    const { error, response } = await api.GET('/api/v1/admin/users');
    expect(response.status).toBe(401);
    expect(errorText(error, 'x')).toBe('detail 401');
    expect(hitsOf('/api/v1/admin/users')).toBe(2);
    expect(hitsOf('/api/v1/auth/refresh-token')).toBe(1);
  });

  it('when renewal fails, every waiting request fails with the original 401 and nothing is replayed', async () => {
    script = (_m, path) => (path === '/api/v1/auth/refresh-token' ? { status: 401, delayMs: 100 } : { status: 401 });
    const { api, redirects } = client();
    const results = await Promise.all([api.GET('/api/v1/admin/users'), api.GET('/api/v1/admin/companies'), api.GET('/api/v1/auth/me')]);
    expect(results.map((r) => r.response.status)).toEqual([401, 401, 401]);
    expect(results.every((r) => errorText(r.error, '') === 'detail 401')).toBe(true);
    expect(hitsOf('/api/v1/auth/refresh-token')).toBe(1);
    expect(hitsOf('/api/v1/admin/users')).toBe(1);
    expect(redirects).toEqual([]);
  });

  it('a failed sign-in (401 from login) is not a reason to renew', async () => {
    script = () => ({ status: 401, body: { title: 'Unauthorized', status: 401, detail: 'Invalid email or password.' } });
    const { api } = client();
    const { error } = await api.POST('/api/v1/auth/login', { body: { email: 'a@b.c', password: 'x' } });
    expect(errorText(error, 'Login failed. Please try again.')).toBe('Invalid email or password.');
    expect(hitsOf('/api/v1/auth/refresh-token')).toBe(0);
    expect(hitsOf('/api/v1/auth/login')).toBe(1);
  });

  it('a request sent before a renewal finished is replayed without a second renewal', async () => {
    let renewed = false;
    script = (_m, path, hits) => {
      if (path === '/api/v1/auth/refresh-token') {
        renewed = true;
        return { status: 200, body: {} };
      }
      // the slow call was sent with the old token and its 401 arrives after the renewal
      if (path === '/api/v1/admin/companies' && hits === 1) return { status: 401, delayMs: 250 };
      return renewed ? { status: 200, body: [] } : { status: 401 };
    };
    const { api } = client();
    const [a, b] = await Promise.all([api.GET('/api/v1/admin/companies'), api.GET('/api/v1/admin/users')]);
    expect([a.response.status, b.response.status]).toEqual([200, 200]);
    expect(hitsOf('/api/v1/auth/refresh-token')).toBe(1);
  });

  it('on 403 sends the browser to /login on the main host and passes the error on', async () => {
    script = () => ({ status: 403, body: { title: 'Forbidden', status: 403, detail: 'Super admins only.' } });
    const { api, redirects } = client();
    const { error, response } = await api.GET('/api/v1/admin/companies');
    expect(response.status).toBe(403);
    expect(errorText(error, '')).toBe('Super admins only.');
    expect(redirects).toEqual(['/login']);
  });

  it('on 403 sends the browser to /company-login on a company subdomain', async () => {
    script = () => ({ status: 403 });
    const { api, redirects } = client({ tenantHost: true });
    await api.DELETE('/api/v1/admin/users/{id}', { params: { path: { id: 'u9' } } });
    expect(redirects).toEqual(['/company-login']);
  });

  it('a 403 from an auth call does not redirect (the error is still passed on)', async () => {
    script = () => ({ status: 403, body: { title: 'Forbidden', status: 403, detail: 'Signup is disabled.' } });
    const { api, redirects } = client();
    const { error } = await api.POST('/api/v1/auth/signup', { body: { name: 'n', email: 'e@x.y', password: 'p' } });
    expect(errorText(error, 'Signup failed.')).toBe('Signup is disabled.');
    expect(redirects).toEqual([]);
  });

  it('other errors pass through untouched', async () => {
    script = () => ({ status: 501, body: { title: 'Not Implemented', status: 501, detail: 'Not built yet.' } });
    const { api, redirects } = client();
    const { error, response } = await api.GET('/api/v1/monitors/summary');
    expect(response.status).toBe(501);
    expect(errorText(error, 'Failed to load data')).toBe('Not built yet.');
    expect(hitsOf('/api/v1/auth/refresh-token')).toBe(0);
    expect(redirects).toEqual([]);
  });
});

describe('errorText', () => {
  it.each([
    [{ detail: 'Server says no' }, 'Server says no'],
    [new Error('Network down'), 'Network down'],
    [{}, 'fallback'],
    [undefined, 'fallback'],
    ['<html>oops</html>', 'fallback'],
  ])('%j -> %s', (input, expected) => {
    expect(errorText(input, 'fallback')).toBe(expected);
  });
});

describe('detailOr', () => {
  it('gives the server detail, else the fallback, never a transport message', () => {
    expect(detailOr({ detail: 'Invalid email or password.' }, 'Login failed. Please try again.')).toBe('Invalid email or password.');
    expect(detailOr(new TypeError('Failed to fetch'), 'Login failed. Please try again.')).toBe('Login failed. Please try again.');
    expect(detailOr({ detail: '' }, 'Signup failed.')).toBe('Signup failed.');
    expect(detailOr(undefined, 'Signup failed.')).toBe('Signup failed.');
  });
});
