// What a refused or missing thing answers in words: a viewer's refused call names what was tried
// ("You do not have permission to manage incidents", not the "create monitors" of the resource
// that guards incidents), and every error status goes out with its own reason phrase on the
// status line ("404 Not Found", never the "404 OK" Astro copied from its page's 200).
import { request, STATUS_CODES } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedCompany, seedUser, signIn } from '../../support/fixtures.ts';
import { DB_KINDS } from '../../support/test-db.ts';
import { ApiClient, startTestApp, type TestApp } from '../../support/test-app.ts';

const NO_SUCH_ID = '00000000-0000-4000-8000-000000000000';

/** The status line as node reads it: code and reason phrase. */
function statusLine(
  port: number,
  path: string,
  headers: Record<string, string>,
  method = 'GET',
  body?: string,
): Promise<{ status: number; reason: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, method, headers }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode ?? 0, reason: res.statusMessage ?? '' }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

describe.each(DB_KINDS)('refusals and reason phrases on %s', (kind) => {
  let t: TestApp;
  let host = '';
  let viewer: ApiClient;
  let viewerCookie = '';

  beforeAll(async () => {
    t = await startTestApp({ db: kind, withPages: true });
    const acme = await seedCompany(t.services, { plan: 'enterprise' });
    host = `${acme.subdomain}.${t.config.productDomain}`;
    viewer = new ApiClient(t.baseUrl, host);
    await signIn(viewer, await seedUser(t.services, { userType: 3, companyId: acme.id }));
    viewerCookie = viewer.cookieHeader(host);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('tells a viewer what was refused in the words of the thing tried, for incidents and every other guarded area', async () => {
    const refused: Array<[Promise<{ status: number; body: { detail: string } }>, string]> = [
      [viewer.post('/api/v1/incidents', { title: 'Slow logins', severity: 'low', message: 'Looking' }), 'manage incidents'],
      [viewer.post(`/api/v1/incidents/${NO_SUCH_ID}/acknowledge`), 'acknowledge incidents'],
      [viewer.post(`/api/v1/maintenance-windows/${NO_SUCH_ID}/end`), 'end maintenance windows'],
      [viewer.get('/api/v1/alert-channels'), 'view alert channels'],
      [viewer.get('/api/v1/escalation-policy'), 'view the escalation policy'],
      [viewer.get('/api/v1/subscribers'), 'view subscribers'],
      [viewer.get('/api/v1/custom-domains'), 'view custom domains'],
      [viewer.delete(`/api/v1/monitors/${NO_SUCH_ID}`), 'delete monitors'],
      [viewer.post(`/api/v1/monitors/${NO_SUCH_ID}/pause`), 'pause or resume monitors'],
    ];
    for (const [call, doing] of refused) {
      const r = await call;
      expect(r.status, doing).toBe(403);
      expect(r.body.detail).toBe(`You do not have permission to ${doing}.`);
    }
  });

  it('sends every error status with its own reason phrase: pages, the API and the framework alike', async () => {
    const tenant = { host: `${host}:${t.port}` };
    const main = { host: `${t.config.productDomain}:${t.port}` };
    const signedIn = { ...tenant, cookie: viewerCookie };
    const json = { ...signedIn, 'content-type': 'application/json', origin: `http://${host}:${t.port}` };
    const answers = [
      await statusLine(t.port, '/no-such-page', main),
      await statusLine(t.port, '/no-such-page', tenant),
      await statusLine(t.port, '/history/no-such-month', tenant),
      await statusLine(t.port, '/favicon.ico', main),
      await statusLine(t.port, '/', { host: `nobody.${t.config.productDomain}:${t.port}` }),
      await statusLine(t.port, '/api/v1/no-such-call', main),
      await statusLine(t.port, `/api/v1/monitors/${NO_SUCH_ID}`, main),
      await statusLine(t.port, '/api/v1/alert-channels', signedIn),
      await statusLine(t.port, '/api/v1/incidents', json, 'POST', '{"title":'),
      await statusLine(t.port, '/api/v1/incidents', { ...json, 'content-type': 'text/plain' }, 'POST', 'x'),
      await statusLine(t.port, `/api/v1/monitors/${'a'.repeat(300)}`, signedIn),
    ];
    expect(answers.map((a) => a.status)).toEqual([404, 404, 404, 404, 404, 404, 401, 403, 400, 415, 414]);
    for (const a of answers) expect(`${a.status} ${a.reason}`).toBe(`${a.status} ${STATUS_CODES[a.status]}`);
  });
});
