// What leaves and enters through a verified custom domain, whoever writes the answer: a route's
// own Set-Cookie (Fastify) and one written on the raw response (as Astro does) are both dropped;
// the session cookie and the Authorization header never reach a route; the Host the routes see
// is the company's own; a custom domain of an inactive company answers 404.
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedCompany } from '../../support/fixtures.ts';
import { freshDb, tempDir } from '../../support/test-db.ts';
import { parseConfig } from '../../../src/server/config.ts';
import type { Db } from '../../../src/server/db/connect.ts';
import { customDomainsRepo } from '../../../src/server/db/repositories/custom-domains-repo.ts';
import type { Services } from '../../../src/server/domain/context.ts';
import { createServices } from '../../../src/server/services.ts';
import { registerCustomDomainHost } from '../../../src/server/http/custom-domain-host.ts';

describe('a request to a verified custom domain', () => {
  let db: Db;
  let services: Services;
  let app: FastifyInstance;
  const seen: Array<{ host?: string; cookie?: string; authorization?: string }> = [];

  beforeAll(async () => {
    db = await freshDb('sqlite');
    services = await createServices(parseConfig({ NODE_ENV: 'test', DATA_DIR: tempDir(), LOG_LEVEL: 'silent' }), { db });
    const acme = await seedCompany(services, { subdomain: 'acme' });
    const gone = await seedCompany(services, { subdomain: 'gone', is_active: false });
    for (const [company, domain] of [
      [acme.id, 'status.acme.example'],
      [gone.id, 'status.gone.example'],
    ] as const) {
      const id = `d-${domain}`;
      await customDomainsRepo(db).insert({
        id,
        company_id: company,
        domain,
        token: 't',
        state: 'pending',
        verified_at: null,
        checked_at: null,
        last_error: null,
        created_at: 0,
        updated_at: 0,
      });
      await customDomainsRepo(db).markVerified(id, 1);
    }
    app = Fastify();
    registerCustomDomainHost(app, services, services.config);
    app.get('/', async (req, reply) => {
      seen.push({ host: req.headers.host, cookie: req.headers.cookie, authorization: req.headers.authorization });
      reply.header('set-cookie', ['sw_at=session; HttpOnly', 'sw_rt=refresh; HttpOnly']);
      return 'page';
    });
    app.post('/access', async (req, reply) => {
      seen.push({ host: req.headers.host, cookie: req.headers.cookie });
      reply.header('set-cookie', ['sw_page=granted; HttpOnly; Secure', 'sw_at=session; HttpOnly']);
      return 'ok';
    });
    app.get('/feed.rss', (_req, reply) => {
      reply.hijack();
      reply.raw.setHeader('set-cookie', 'sw_at=again');
      reply.raw.writeHead(200, { 'content-type': 'application/rss+xml', 'set-cookie': ['sw_rt=raw'] });
      reply.raw.end('<rss/>');
    });
    await app.ready();
  });
  afterAll(async () => {
    await app?.close();
    await db?.close();
  });

  it('reaches the routes as the company host, without the session or a token, and sets no cookie', async () => {
    const r = await app.inject({
      url: '/',
      headers: { host: 'status.acme.example:8080', cookie: 'sw_at=stolen; sw_rt=x', authorization: 'Bearer swt_x' },
    });
    expect(r.statusCode).toBe(200);
    expect(r.headers['set-cookie']).toBeUndefined();
    expect(seen.at(-1)).toEqual({ host: 'acme.localhost:8080', cookie: undefined, authorization: undefined });
    const raw = await app.inject({ url: '/feed.rss', headers: { host: 'status.acme.example' } });
    expect(raw.statusCode).toBe(200);
    expect(raw.headers['set-cookie']).toBeUndefined();
    expect(raw.body).toBe('<rss/>');
  });

  it("passes a private page's password form and its own cookie, never the session's", async () => {
    const r = await app.inject({
      method: 'POST',
      url: '/access',
      headers: { host: 'status.acme.example', cookie: 'sw_page=old; sw_at=stolen' },
    });
    expect(r.statusCode).toBe(200);
    expect(r.headers['set-cookie']).toEqual(['sw_page=granted; HttpOnly; Secure']);
    expect(seen.at(-1)).toEqual({ host: 'acme.localhost', cookie: 'sw_page=old' });
  });

  it('leaves the platform hosts alone', async () => {
    const r = await app.inject({ url: '/', headers: { host: 'acme.localhost', cookie: 'sw_at=mine' } });
    expect(r.headers['set-cookie']).toEqual(['sw_at=session; HttpOnly', 'sw_rt=refresh; HttpOnly']);
    expect(seen.at(-1)).toMatchObject({ host: 'acme.localhost', cookie: 'sw_at=mine' });
  });

  it('answers 404 for an inactive company and for a path that is no public document', async () => {
    expect((await app.inject({ url: '/', headers: { host: 'status.gone.example' } })).statusCode).toBe(404);
    expect((await app.inject({ url: '/dashboard', headers: { host: 'status.acme.example' } })).statusCode).toBe(404);
  });
});
