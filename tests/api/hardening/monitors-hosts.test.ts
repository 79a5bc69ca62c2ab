// Target hosts of every monitor kind must be a DNS name or an IP address (issue 11): the tcp host
// field took `;id`, `$(id)` and newlines. Each refusal is a 400 with a message on its field.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedCompany, seedUser, signIn } from '../../support/fixtures.ts';
import { DB_KINDS } from '../../support/test-db.ts';
import { ApiClient, startTestApp, type TestApp } from '../../support/test-app.ts';

const HOST_TEXT = 'Host must be a host name like db.example.com or an IP address';
const URL_TEXT = 'URL host must be a host name like example.com or an IP address';

const BAD_HOSTS = [
  ';id',
  '$(id)',
  'a\nb',
  'db .example.com',
  'db..example.com',
  '.example.com',
  `${'a'.repeat(64)}.example.com`,
  '-db.example.com',
  'db-.example.com',
  'db_1.example.com',
  'db.example.com:22',
  '127.1',
  '[::1]x',
  'a/b',
  'user@host',
];

describe.each(DB_KINDS)('monitor target hosts on %s', (kind) => {
  let t: TestApp;
  let admin: ApiClient;

  beforeAll(async () => {
    t = await startTestApp({ db: kind, env: { ALLOW_PRIVATE_TARGETS: 'true', MIN_CHECK_INTERVAL_SECONDS: '60' } });
    const acme = await seedCompany(t.services, { plan: 'enterprise' });
    admin = new ApiClient(t.baseUrl, `${acme.subdomain}.${t.config.productDomain}`);
    await signIn(admin, await seedUser(t.services, { userType: 2, companyId: acme.id }));
  });
  afterAll(async () => {
    await t?.close();
  });

  const create = (body: Record<string, unknown>) =>
    admin.post('/api/v1/monitors', { name: 'target', interval_seconds: 3600, is_public: false, ...body });

  it.each(BAD_HOSTS)('refuses the tcp and ssl host %j with a message on host', async (host) => {
    for (const type of ['tcp', 'ssl']) {
      const r = await create({ type, host, port: 5432 });
      expect(r.status, `${type} ${JSON.stringify(r.body)}`).toBe(400);
      expect(r.body.errors).toEqual({ host: HOST_TEXT });
      expect(r.body.detail).toBe(HOST_TEXT);
    }
  });

  it('refuses a name longer than 253 characters on the host field', async () => {
    const r = await create({ type: 'tcp', host: `${'abcdefghi.'.repeat(26)}com`, port: 5432 });
    expect(r.status).toBe(400);
    expect(Object.keys(r.body.errors)).toEqual(['host']);
  });

  it('refuses the same on update and keeps the saved host', async () => {
    const m = await create({ type: 'tcp', host: 'db.example.com', port: 5432 });
    expect(m.status).toBe(201);
    for (const host of [';id', '$(id)', 'a\nb']) {
      const r = await admin.put(`/api/v1/monitors/${m.body.id}`, { host });
      expect(r.status).toBe(400);
      expect(r.body.errors.host).toBe(HOST_TEXT);
    }
    expect((await admin.get(`/api/v1/monitors/${m.body.id}`)).body.host).toBe('db.example.com');
  });

  it('refuses such hosts inside an http URL', async () => {
    for (const url of [
      'http://$(id)/',
      'http://a;id/',
      'https://db..example.com/',
      `http://${'a'.repeat(64)}.example.com/`,
      'http://a_b.example.com/',
    ]) {
      const r = await create({ type: 'http', url });
      expect(r.status, url).toBe(400);
      expect(r.body.errors).toEqual({ url: URL_TEXT });
    }
  });

  it('refuses bad DNS names and resolvers', async () => {
    for (const host of [';id', '$(id)', 'a\nb', 'a b', 'example..com', `${'a'.repeat(64)}.com`]) {
      const r = await create({ type: 'dns', host });
      expect(r.status, host).toBe(400);
      expect(Object.keys(r.body.errors)).toEqual(['host']);
    }
    for (const resolver of [';id', '1.1.1.1;id', '$(id):53', '1.1.1.1:99999', 'a\nb']) {
      const r = await create({ type: 'dns', host: 'example.com', resolver });
      expect(r.status, resolver).toBe(400);
      expect(r.body.errors).toEqual({ resolver: 'Resolver must be an IP address or host name, with an optional :port' });
    }
  });

  it('accepts names, IPv4 and IPv6 literals, and stores international names in their ASCII form', async () => {
    const ok: Array<[Record<string, unknown>, Record<string, unknown>]> = [
      [{ type: 'tcp', host: 'db.example.com', port: 5432 }, { host: 'db.example.com' }],
      [{ type: 'tcp', host: 'LOCALHOST', port: 5432 }, { host: 'localhost' }],
      [{ type: 'tcp', host: '127.0.0.1', port: 5432 }, { host: '127.0.0.1' }],
      [{ type: 'tcp', host: '::1', port: 5432 }, { host: '::1' }],
      [{ type: 'ssl', host: 'bücher.example', port: 443 }, { host: 'xn--bcher-kva.example' }],
      [{ type: 'ssl', host: 'example.com.', port: 443 }, { host: 'example.com' }],
      [{ type: 'http', url: 'http://[::1]:8080/health' }, { url: 'http://[::1]:8080/health' }],
      [{ type: 'http', url: 'https://bücher.example/' }, { url: 'https://xn--bcher-kva.example/' }],
      [
        { type: 'dns', host: '_dmarc.example.com', record_type: 'TXT', resolver: '[::1]:5353' },
        { host: '_dmarc.example.com', resolver: '[::1]:5353' },
      ],
      [{ type: 'dns', host: 'example.com', resolver: '127.0.0.1' }, { resolver: '127.0.0.1' }],
    ];
    for (const [body, want] of ok) {
      const r = await create(body);
      expect(r.status, JSON.stringify([body, r.body])).toBe(201);
      expect(r.body).toMatchObject(want);
    }
  });
});
