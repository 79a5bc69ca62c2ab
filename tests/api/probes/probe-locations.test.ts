// Probe locations, their tokens and the probe's hello (issue 27 items 2, 5 and 6), on both
// databases: who sees and manages which location (another company's private location answers
// 404, as every object of another tenant), slugs, tokens shown once and stored as SHA-256,
// revocation effective on the next call, probe tokens refused everywhere but the probe's own
// call and user credentials refused there, and what hello records and answers.
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DB_KINDS } from '../../support/test-db.ts';
import { rawRequest, startTestApp, type ApiClient, type TestApp } from '../../support/test-app.ts';
import { seedCompany, seedUser, signIn } from '../../support/fixtures.ts';
import { assertMatchesContract } from '../../support/contract.ts';
import { PROBE_MIN_VERSION, PROBE_ONLINE_MS } from '../../../src/lib/probe-locations.ts';

const ACME = { host: 'acme.localhost' };
const GLOBEX = { host: 'globex.localhost' };

describe.each(DB_KINDS)('probe locations on %s', (kind) => {
  let t: TestApp;
  let clock = Date.parse('2026-11-29T10:00:00Z');
  let root: ApiClient;
  let acmeAdmin: ApiClient;
  let acmeViewer: ApiClient;
  let globexAdmin: ApiClient;
  let acmeApiToken: string;
  let acme: { id: string };
  let globex: { id: string };

  beforeAll(async () => {
    t = await startTestApp({ db: kind, now: () => clock });
    acme = await seedCompany(t.services, { name: 'Acme', subdomain: 'acme' });
    globex = await seedCompany(t.services, { name: 'Globex', subdomain: 'globex' });
    root = t.client();
    await signIn(root, await seedUser(t.services, { userType: 1 }));
    acmeAdmin = t.client();
    await signIn(acmeAdmin, await seedUser(t.services, { userType: 2, companyId: acme.id }), ACME.host);
    acmeViewer = t.client();
    await signIn(acmeViewer, await seedUser(t.services, { userType: 3, companyId: acme.id }), ACME.host);
    globexAdmin = t.client();
    await signIn(globexAdmin, await seedUser(t.services, { userType: 2, companyId: globex.id }), GLOBEX.host);
    const tok = await acmeAdmin.post('/api/v1/api-tokens', { name: 'script', scope: 'write' }, ACME);
    acmeApiToken = tok.body.token;
  });
  afterAll(async () => t?.close());

  /** A probe's call: its token alone, no cookies and no Origin, its answer checked against the contract. */
  const hello = async (token: string | null, body: unknown = { instance: 'probe-1', version: '1.0.0' }) => {
    const r = await rawRequest(
      `${t.baseUrl}/api/v1/probe/hello`,
      'POST',
      { host: `localhost:${t.port}`, 'content-type': 'application/json', ...(token === null ? {} : { authorization: `Bearer ${token}` }) },
      JSON.stringify(body),
    );
    const type = r.headers.get('content-type') ?? '';
    await assertMatchesContract('POST', '/api/v1/probe/hello', r.status, type, JSON.parse(r.text));
    return r;
  };

  let frankfurt: string;
  let acmeLab: string;
  let globexLabId: string;

  it('lets the super admin create public locations and a company admin private ones, refusing the other way round', async () => {
    const pub = await root.post('/api/v1/probe-locations', { name: 'Frankfurt', slug: 'eu-west', private: false });
    expect(pub.status).toBe(201);
    expect(pub.body).toMatchObject({
      slug: 'eu-west',
      name: 'Frankfurt',
      private: false,
      builtin: false,
      company: null,
      can_manage_tokens: true,
    });
    frankfurt = pub.body.id;
    const priv = await acmeAdmin.post('/api/v1/probe-locations', { name: 'Acme lab', slug: 'lab', private: true }, ACME);
    expect(priv.status).toBe(201);
    expect(priv.body).toMatchObject({
      slug: 'lab',
      private: true,
      company: { id: acme.id, name: 'Acme' },
      can_manage_tokens: true,
      can_delete: false,
    });
    acmeLab = priv.body.id;

    const adminPublic = await acmeAdmin.post('/api/v1/probe-locations', { name: 'Mine', slug: 'mine', private: false }, ACME);
    expect(adminPublic.status).toBe(403);
    expect(adminPublic.body.detail).toBe('Only a super admin creates public locations.');
    expect((await root.post('/api/v1/probe-locations', { name: 'X', slug: 'x-private', private: true })).status).toBe(403);
    expect((await acmeViewer.post('/api/v1/probe-locations', { name: 'V', slug: 'viewer', private: true }, ACME)).status).toBe(403);
    const audit = await root.get('/api/v1/admin/audit?event=probe_location_create');
    expect(audit.text).toContain('eu-west');
    expect(audit.text).toContain('"lab"');
  });

  it('checks slugs: their form, the reserved local, and duplicates with the field named', async () => {
    const bad = await acmeAdmin.post('/api/v1/probe-locations', { name: 'Bad', slug: 'Bad_Slug', private: true }, ACME);
    expect(bad.status).toBe(400);
    expect(bad.body.errors.slug).toBe('A slug has lower-case letters, digits and hyphens, and starts and ends with a letter or digit.');
    const local = await root.post('/api/v1/probe-locations', { name: 'Local', slug: 'local', private: false });
    expect(local.status).toBe(400);
    expect(local.body.errors).toEqual({ slug: '"local" is reserved for the built-in engine.' });
    const dupPublic = await root.post('/api/v1/probe-locations', { name: 'Again', slug: 'eu-west', private: false });
    expect(dupPublic.status).toBe(409);
    expect(dupPublic.body.errors).toEqual({ slug: 'This slug is taken. Choose another.' });
    // a private slug may not shadow a public one, nor a public one any company's private slug
    expect((await acmeAdmin.post('/api/v1/probe-locations', { name: 'Shadow', slug: 'eu-west', private: true }, ACME)).status).toBe(409);
    expect((await root.post('/api/v1/probe-locations', { name: 'Public lab', slug: 'lab', private: false })).status).toBe(409);
    // another company's private slug is its own business
    const globexLab = await globexAdmin.post('/api/v1/probe-locations', { name: 'Globex lab', slug: 'lab', private: true }, GLOBEX);
    expect(globexLab.status).toBe(201);
    globexLabId = globexLab.body.id;
  });

  it('lists local first, then public, then the private ones the caller may see', async () => {
    const forAcme = await acmeViewer.get('/api/v1/probe-locations', ACME);
    expect(forAcme.status).toBe(200);
    expect(forAcme.body.map((l: { slug: string; company: { name: string } | null }) => [l.slug, l.company?.name ?? null])).toEqual([
      ['local', null],
      ['eu-west', null],
      ['lab', 'Acme'],
    ]);
    expect(forAcme.body[0]).toMatchObject({ id: 'local', builtin: true, private: false, can_delete: false, can_manage_tokens: false });
    const forGlobex = await globexAdmin.get('/api/v1/probe-locations', GLOBEX);
    expect(forGlobex.body.map((l: { slug: string; company: { name: string } | null }) => [l.slug, l.company?.name ?? null])).toEqual([
      ['local', null],
      ['eu-west', null],
      ['lab', 'Globex'],
    ]);
    const forRoot = await root.get('/api/v1/probe-locations');
    expect(forRoot.body.map((l: { slug: string; company: { name: string } | null }) => [l.slug, l.company?.name ?? null])).toEqual([
      ['local', null],
      ['eu-west', null],
      ['lab', 'Acme'],
      ['lab', 'Globex'],
    ]);
    // the super admin sees private locations read-only (their company's admins manage them)
    expect(forRoot.body[2]).toMatchObject({ can_manage_tokens: false, can_delete: true });
  });

  it("hides a company's private location from another company: 404 to see, delete, mint or revoke", async () => {
    expect((await globexAdmin.get(`/api/v1/probe-locations/${acmeLab}`, GLOBEX)).status).toBe(404);
    expect((await globexAdmin.post(`/api/v1/probe-locations/${acmeLab}/tokens`, { name: 'steal' }, GLOBEX)).status).toBe(404);
    expect((await globexAdmin.delete(`/api/v1/probe-locations/${acmeLab}/tokens/whatever`, GLOBEX)).status).toBe(404);
    expect((await globexAdmin.delete(`/api/v1/probe-locations/${acmeLab}`, GLOBEX)).status).toBe(404);
    // visible but not theirs to change: 403
    expect((await globexAdmin.post(`/api/v1/probe-locations/${frankfurt}/tokens`, { name: 'x' }, GLOBEX)).status).toBe(403);
    expect((await acmeAdmin.delete(`/api/v1/probe-locations/${acmeLab}`, ACME)).status).toBe(403);
    expect((await acmeViewer.post(`/api/v1/probe-locations/${acmeLab}/tokens`, { name: 'x' }, ACME)).status).toBe(403);
    expect((await root.post(`/api/v1/probe-locations/${acmeLab}/tokens`, { name: 'x' })).status).toBe(403);
    // the built-in location is read-only
    expect((await root.delete('/api/v1/probe-locations/local')).status).toBe(403);
    expect((await root.post('/api/v1/probe-locations/local/tokens', { name: 'x' })).status).toBe(403);
    expect((await acmeViewer.get('/api/v1/probe-locations/local', ACME)).body).toMatchObject({ builtin: true, probes: [], tokens: [] });
    // an API token may read locations but not mint probe credentials
    const byToken = await rawRequest(
      `${t.baseUrl}/api/v1/probe-locations/${acmeLab}/tokens`,
      'POST',
      {
        host: `acme.localhost:${t.port}`,
        authorization: `Bearer ${acmeApiToken}`,
        'content-type': 'application/json',
      },
      JSON.stringify({ name: 'x' }),
    );
    expect(byToken.status).toBe(403);
  });

  let labToken: string;
  let labTokenId: string;

  it('shows a token once and stores only its SHA-256', async () => {
    const r = await acmeAdmin.post(`/api/v1/probe-locations/${acmeLab}/tokens`, { name: 'rack 1' }, ACME);
    expect(r.status).toBe(201);
    expect(r.body.token).toMatch(/^swp_[A-Za-z0-9_-]{43}$/);
    expect(r.body.prefix).toBe(r.body.token.slice(0, 12));
    labToken = r.body.token;
    labTokenId = r.body.id;
    const stored = await t.services.db.k.selectFrom('probe_tokens').selectAll().where('id', '=', labTokenId).executeTakeFirstOrThrow();
    expect(stored.token_hash).toBe(createHash('sha256').update(labToken).digest('hex'));
    expect(JSON.stringify(stored)).not.toContain(labToken.slice(12));
    const detail = await acmeAdmin.get(`/api/v1/probe-locations/${acmeLab}`, ACME);
    expect(detail.body.tokens).toEqual([
      { id: labTokenId, name: 'rack 1', prefix: labToken.slice(0, 12), created_at: expect.any(String), last_used_at: null },
    ]);
    expect(detail.text).not.toContain(labToken.slice(12));
    // viewers see the probes, not the tokens
    expect((await acmeViewer.get(`/api/v1/probe-locations/${acmeLab}`, ACME)).body.tokens).toEqual([]);
    expect((await root.get('/api/v1/admin/audit?event=probe_token_create')).text).toContain(labTokenId);
  });

  it('records the probe on hello: its location, version, first and last seen, online then offline', async () => {
    const first = await hello(labToken, { instance: 'rack-1.acme.internal', version: '1.2.3' });
    expect(first.status).toBe(200);
    const body = JSON.parse(first.text);
    expect(body).toEqual({
      probe_id: expect.any(String),
      location: { slug: 'lab', name: 'Acme lab', private: true },
      min_version: PROBE_MIN_VERSION,
      upgrade: false,
    });
    const firstSeen = clock;
    clock += 30_000;
    const again = JSON.parse((await hello(labToken, { instance: 'rack-1.acme.internal', version: '1.2.4' })).text);
    expect(again.probe_id).toBe(body.probe_id);
    const detail = await acmeViewer.get(`/api/v1/probe-locations/${acmeLab}`, ACME);
    expect(detail.body.probes).toEqual([
      {
        id: body.probe_id,
        instance: 'rack-1.acme.internal',
        version: '1.2.4',
        online: true,
        upgrade: false,
        first_seen_at: new Date(firstSeen).toISOString(),
        last_seen_at: new Date(clock).toISOString(),
        checks_per_second: null,
        lag_ms: null,
        capabilities: [],
      },
    ]);
    expect(detail.body).toMatchObject({ probes_total: 1, probes_online: 1 });
    expect((await acmeAdmin.get(`/api/v1/probe-locations/${acmeLab}`, ACME)).body.tokens[0].last_used_at).toBe(
      new Date(firstSeen).toISOString(),
    );
    clock += PROBE_ONLINE_MS + 1;
    const later = await acmeViewer.get(`/api/v1/probe-locations/${acmeLab}`, ACME);
    expect(later.body.probes[0].online).toBe(false);
    expect(later.body).toMatchObject({ probes_total: 1, probes_online: 0 });
  });

  it('tells a probe older than the minimum version to upgrade', async () => {
    const old = await hello(labToken, { instance: 'old-box', version: '0.0.9' });
    expect(old.status).toBe(200);
    expect(JSON.parse(old.text)).toMatchObject({ min_version: PROBE_MIN_VERSION, upgrade: true });
    const detail = await acmeViewer.get(`/api/v1/probe-locations/${acmeLab}`, ACME);
    expect(detail.body.probes.find((p: { instance: string }) => p.instance === 'old-box')).toMatchObject({
      version: '0.0.9',
      upgrade: true,
    });
    expect((await hello(labToken, { instance: 'x', version: 'latest' })).status).toBe(400);
  });

  it('refuses a probe token on every other call, and user credentials on hello', async () => {
    const monitors = await rawRequest(`${t.baseUrl}/api/v1/monitors`, 'GET', {
      host: `acme.localhost:${t.port}`,
      authorization: `Bearer ${labToken}`,
    });
    expect(monitors.status).toBe(401);
    const locations = await rawRequest(`${t.baseUrl}/api/v1/probe-locations`, 'GET', {
      host: `acme.localhost:${t.port}`,
      authorization: `Bearer ${labToken}`,
    });
    expect(locations.status).toBe(401);
    // a signed-in session on hello: refused, whatever cookies come along
    const session = await acmeAdmin.post('/api/v1/probe/hello', { instance: 'me', version: '1.0.0' }, ACME);
    expect(session.status).toBe(401);
    expect((await hello(acmeApiToken)).status).toBe(401);
    expect((await hello(null)).status).toBe(401);
    expect((await hello('swp_unknown-token-of-no-location')).status).toBe(401);
  });

  it('refuses a revoked token on its next hello', async () => {
    expect((await hello(labToken)).status).toBe(200);
    const revoked = await acmeAdmin.delete(`/api/v1/probe-locations/${acmeLab}/tokens/${labTokenId}`, ACME);
    expect(revoked.status).toBe(200);
    const refused = await hello(labToken);
    expect(refused.status).toBe(401);
    expect(JSON.parse(refused.text).detail).toBe('This probe token is invalid or revoked.');
    expect((await acmeAdmin.get(`/api/v1/probe-locations/${acmeLab}`, ACME)).body.tokens).toEqual([]);
    expect((await acmeAdmin.delete(`/api/v1/probe-locations/${acmeLab}/tokens/${labTokenId}`, ACME)).status).toBe(404);
    expect((await root.get('/api/v1/admin/audit?event=probe_token_revoke')).text).toContain(labTokenId);
  });

  it('throttles hellos per token', async () => {
    const minted = await root.post(`/api/v1/probe-locations/${frankfurt}/tokens`, { name: 'fra-1' });
    let last = 0;
    for (let i = 0; i < 31; i++) last = (await hello(minted.body.token, { instance: 'fra-1', version: '1.0.0' })).status;
    expect(last).toBe(429);
  });

  it('deletes a location with its probes and tokens (super admin), its tokens refused from then on', async () => {
    const minted = await root.post(`/api/v1/probe-locations/${frankfurt}/tokens`, { name: 'fra-2' });
    expect((await hello(minted.body.token, { instance: 'fra-2', version: '1.0.0' })).status).toBe(200);
    expect((await root.delete(`/api/v1/probe-locations/${frankfurt}`)).status).toBe(200);
    expect((await root.get(`/api/v1/probe-locations/${frankfurt}`)).status).toBe(404);
    expect((await hello(minted.body.token)).status).toBe(401);
    const left = await t.services.db.k.selectFrom('probes').select('id').where('location_id', '=', frankfurt).execute();
    expect(left).toEqual([]);
    expect((await root.get('/api/v1/admin/audit?event=probe_location_delete')).text).toContain(frankfurt);
  });

  it('goes with its company: deleting a company removes its private locations, their tokens and probes', async () => {
    const minted = await globexAdmin.post(`/api/v1/probe-locations/${globexLabId}/tokens`, { name: 'g' }, GLOBEX);
    expect((await hello(minted.body.token, { instance: 'g-1', version: '1.0.0' })).status).toBe(200);
    expect((await root.delete(`/api/v1/admin/companies/${globex.id}`)).status).toBe(200);
    expect(await t.services.db.k.selectFrom('probe_locations').select('id').where('company_id', '=', globex.id).execute()).toEqual([]);
    expect(await t.services.db.k.selectFrom('probes').select('id').where('location_id', '=', globexLabId).execute()).toEqual([]);
    expect((await hello(minted.body.token)).status).toBe(401);
  });
});
