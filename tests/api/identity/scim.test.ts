// SCIM 2.0 provisioning through the real server on both databases, with the requests exactly as
// Okta and Entra ID send them (bodies, media type, PATCH shapes from their SCIM documentation):
// the company admin makes a token (Enterprise plan only, shown once), Okta creates a user and
// finds them by filter, deactivates them (their session ends and their API token is refused
// with 401), reactivates them (they sign in again); Entra ID's PATCH shapes ("Replace", the
// string "False", emails[type eq "work"].value, name.givenName); groups with members, Okta's and
// Entra's add/remove of members changing the role through the mapped groups; another company's
// token neither sees nor touches this company's users; a revoked token is 401; max_users full.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SlidingWindow } from '../../../src/server/domain/auth/throttle.ts';
import { seedCompany, seedUser, signIn } from '../../support/fixtures.ts';
import { assertMatchesContract } from '../../support/contract.ts';
import { type ApiClient, rawRequest, startTestApp, type TestApp } from '../../support/test-app.ts';
import { DB_KINDS } from '../../support/test-db.ts';

const PATCH_OP = 'urn:ietf:params:scim:api:messages:2.0:PatchOp';
const USER = 'urn:ietf:params:scim:schemas:core:2.0:User';
const GROUP = 'urn:ietf:params:scim:schemas:core:2.0:Group';
const ERROR = 'urn:ietf:params:scim:api:messages:2.0:Error';

interface ScimAnswer {
  status: number;
  body: any;
  type: string;
  location: string | null;
  retryAfter: string | null;
}

/** A SCIM client as an IdP is: bearer token, application/scim+json, no Origin, no cookies. */
function scimClient(t: TestApp, host: string, token: string, agent: string) {
  return async (method: string, path: string, body?: unknown): Promise<ScimAnswer> => {
    const headers: Record<string, string> = {
      host: `${host}:${t.port}`,
      authorization: `Bearer ${token}`,
      accept: 'application/scim+json',
      'user-agent': agent,
    };
    if (body !== undefined) headers['content-type'] = 'application/scim+json; charset=utf-8';
    const url = `/scim/v2${path}`;
    const res = await rawRequest(t.baseUrl + url, method, headers, body === undefined ? undefined : JSON.stringify(body));
    const type = res.headers.get('content-type') ?? '';
    const parsed = res.text ? JSON.parse(res.text) : undefined;
    await assertMatchesContract(method, url, res.status, type, parsed);
    return { status: res.status, body: parsed, type, location: res.headers.get('location'), retryAfter: res.headers.get('retry-after') };
  };
}

type Scim = ReturnType<typeof scimClient>;

describe.each(DB_KINDS)('SCIM provisioning on %s', (kind) => {
  let t: TestApp;
  let admin: ApiClient;
  let okta: Scim;
  let entra: Scim;
  let globexScim: Scim;
  let token: string;
  let globexToken: string;
  let acmeId: string;
  const A = { host: 'acme.localhost' };

  beforeAll(async () => {
    t = await startTestApp({ db: kind });
    const acme = await seedCompany(t.services, { name: 'Acme', subdomain: 'acme', plan: 'enterprise', max_users: 6 });
    acmeId = acme.id;
    const globex = await seedCompany(t.services, { name: 'Globex', subdomain: 'globex', plan: 'enterprise' });
    await seedCompany(t.services, { name: 'Initech', subdomain: 'initech', plan: 'professional' });
    admin = t.client();
    await signIn(admin, await seedUser(t.services, { userType: 2, companyId: acme.id, email: 'admin@acme.example' }), A.host);
    const made = await admin.post('/api/v1/company/scim-token', undefined, A);
    expect(made.status).toBe(201);
    token = made.body.token;
    expect(made.body.base_url).toBe(`http://acme.localhost:${t.port}/scim/v2`);
    okta = scimClient(t, 'acme.localhost', token, 'Okta SCIM Client 1.0.0');
    entra = scimClient(t, 'acme.localhost', token, 'Azure Active Directory SCIM Client');
    const g = t.client();
    await signIn(g, await seedUser(t.services, { userType: 2, companyId: globex.id }), 'globex.localhost');
    globexToken = (await g.post('/api/v1/company/scim-token', undefined, { host: 'globex.localhost' })).body.token;
    globexScim = scimClient(t, 'globex.localhost', globexToken, 'Okta SCIM Client 1.0.0');
  });
  afterAll(async () => t?.close());

  it('shows the token once, then only its prefix, and refuses a plan without SCIM', async () => {
    const settings = await admin.get('/api/v1/company/scim-token', A);
    expect(settings.status).toBe(200);
    expect(settings.body.available).toBe(true);
    expect(settings.body.token.prefix).toBe(token.slice(0, 12));
    expect(JSON.stringify(settings.body)).not.toContain(token);
    const initechAdmin = t.client();
    const initech = await t.services.db.k.selectFrom('companies').select('id').where('subdomain', '=', 'initech').executeTakeFirstOrThrow();
    await signIn(initechAdmin, await seedUser(t.services, { userType: 2, companyId: initech.id }), 'initech.localhost');
    const refused = await initechAdmin.post('/api/v1/company/scim-token', undefined, { host: 'initech.localhost' });
    expect(refused.status).toBe(403);
    expect(refused.body.detail).toMatch(/Enterprise plan/);
    const viewer = t.client();
    await signIn(viewer, await seedUser(t.services, { userType: 3, companyId: acmeId }), A.host);
    expect((await viewer.post('/api/v1/company/scim-token', undefined, A)).status).toBe(403);
  });

  it('answers its discovery documents', async () => {
    const spc = await okta('GET', '/ServiceProviderConfig');
    expect(spc.status).toBe(200);
    expect(spc.type).toMatch(/^application\/scim\+json/);
    expect(spc.body.patch.supported).toBe(true);
    expect((await okta('GET', '/ResourceTypes')).body.Resources.map((r: any) => r.endpoint)).toEqual(['/Users', '/Groups']);
    expect((await okta('GET', '/Schemas')).body.Resources.map((r: any) => r.id)).toEqual([USER, GROUP]);
  });

  it("creates Okta's user, finds them by filter, deactivates and reactivates them", async () => {
    // Okta first looks the user up, then creates them (Okta's SCIM 2.0 protocol reference)
    const before = await okta('GET', `/Users?filter=${encodeURIComponent('userName eq "jane.doe@acme.example"')}&startIndex=1&count=100`);
    expect(before.status).toBe(200);
    expect(before.body).toMatchObject({ totalResults: 0, Resources: [] });
    const created = await okta('POST', '/Users', {
      schemas: [USER],
      userName: 'jane.doe@acme.example',
      name: { givenName: 'Jane', familyName: 'Doe' },
      emails: [{ primary: true, value: 'jane.doe@acme.example', type: 'work' }],
      displayName: 'Jane Doe',
      locale: 'en-US',
      externalId: '00ujl29u0le5T6Aj10h7',
      groups: [],
      password: 'Sync-pass-2024!',
      active: true,
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      userName: 'jane.doe@acme.example',
      active: true,
      externalId: '00ujl29u0le5T6Aj10h7',
      displayName: 'Jane Doe',
    });
    expect(created.location).toBe(`http://acme.localhost:${t.port}/scim/v2/Users/${created.body.id}`);
    const id = created.body.id;
    const found = await okta('GET', `/Users?filter=${encodeURIComponent('userName eq "jane.doe@acme.example"')}&startIndex=1&count=100`);
    expect(found.body.totalResults).toBe(1);
    expect(found.body.Resources[0].id).toBe(id);
    const again = await okta('POST', '/Users', { schemas: [USER], userName: 'jane.doe@acme.example', active: true });
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ schemas: [ERROR], status: '409', scimType: 'uniqueness' });

    // Jane works: a browser session and an API token
    const jane = t.client();
    await signIn(jane, { email: 'jane.doe@acme.example', password: 'Sync-pass-2024!' }, A.host);
    expect((await jane.get('/api/v1/auth/me', A)).status).toBe(200);
    const apiToken = (await jane.post('/api/v1/api-tokens', { name: 'script', scope: 'read' }, A)).body.token as string;
    const script = t.client();
    const withToken = { ...A, headers: { authorization: `Bearer ${apiToken}` } };
    expect((await script.get('/api/v1/auth/me', withToken)).status).toBe(200);

    // Okta deactivates her
    const off = await okta('PATCH', `/Users/${id}`, { schemas: [PATCH_OP], Operations: [{ op: 'replace', value: { active: false } }] });
    expect(off.status).toBe(200);
    expect(off.body.active).toBe(false);
    expect((await jane.get('/api/v1/auth/me', A)).status).toBe(401);
    expect((await script.get('/api/v1/auth/me', withToken)).status).toBe(401);
    const refused = await t.client().post('/api/v1/auth/login', { email: 'jane.doe@acme.example', password: 'Sync-pass-2024!' }, A);
    expect(refused.status).not.toBe(200);

    // and back: she signs in again; the revoked API token stays revoked
    const on = await okta('PATCH', `/Users/${id}`, { schemas: [PATCH_OP], Operations: [{ op: 'replace', value: { active: true } }] });
    expect(on.body.active).toBe(true);
    await signIn(t.client(), { email: 'jane.doe@acme.example', password: 'Sync-pass-2024!' }, A.host);
    expect((await script.get('/api/v1/auth/me', withToken)).status).toBe(401);

    const audit = await t.services.db.k
      .selectFrom('audit_events')
      .select(['event', 'details', 'tenant_id'])
      .where('tenant_id', '=', acmeId)
      .where('event', 'in', ['user_create', 'user_update'])
      .execute();
    const scimEvents = audit.map((a) => ({ event: a.event, ...JSON.parse(a.details ?? '{}') })).filter((d) => d.user_id === id);
    expect(scimEvents.map((e) => [e.event, e.source])).toEqual([
      ['user_create', 'scim'],
      ['user_update', 'scim'],
      ['user_update', 'scim'],
    ]);
    expect(scimEvents[1].changed).toMatchObject({ active: false, api_tokens_revoked: 1 });
  });

  it("reads Entra ID's PATCH shapes: Replace with a path, the string False, emails and name", async () => {
    const created = await entra('POST', '/Users', {
      schemas: [USER, 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User'],
      externalId: '0a21f0f2-8d2a-4f8e-bf98-7363c4aed4ef',
      userName: 'sam.lee@acme.example',
      active: true,
      emails: [{ primary: true, type: 'work', value: 'sam.lee@acme.example' }],
      meta: { resourceType: 'User' },
      name: { formatted: 'Sam Lee', familyName: 'Lee', givenName: 'Sam' },
      roles: [],
    });
    expect(created.status).toBe(201);
    const id = created.body.id;
    const byFilter = await entra('GET', `/Users?filter=${encodeURIComponent('userName eq "sam.lee@acme.example"')}`);
    expect(byFilter.body.Resources.map((u: any) => u.id)).toEqual([id]);

    const renamed = await entra('PATCH', `/Users/${id}`, {
      schemas: [PATCH_OP],
      Operations: [
        { op: 'Replace', path: 'emails[type eq "work"].value', value: 'samuel.lee@acme.example' },
        { op: 'Replace', path: 'name.givenName', value: 'Samuel' },
      ],
    });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toMatchObject({
      userName: 'samuel.lee@acme.example',
      name: { givenName: 'Samuel', familyName: 'Lee' },
      displayName: 'Samuel Lee',
    });
    expect(renamed.body.emails).toEqual([{ value: 'samuel.lee@acme.example', type: 'work', primary: true }]);

    const falseString = await entra('PATCH', `/Users/${id}`, {
      schemas: [PATCH_OP],
      Operations: [{ op: 'Replace', path: 'active', value: 'False' }],
    });
    expect(falseString.body.active).toBe(false);
    const trueBool = await entra('PATCH', `/Users/${id}`, {
      schemas: [PATCH_OP],
      Operations: [{ op: 'Replace', path: 'active', value: true }],
    });
    expect(trueBool.body.active).toBe(true);
    const noPath = await entra('PATCH', `/Users/${id}`, {
      schemas: [PATCH_OP],
      Operations: [{ op: 'Replace', value: { active: 'False' } }],
    });
    expect(noPath.body.active).toBe(false);

    const badFilter = await entra('GET', `/Users?filter=${encodeURIComponent('displayName co "Sam"')}`);
    expect(badFilter.status).toBe(400);
    expect(badFilter.body).toMatchObject({ schemas: [ERROR], status: '400', scimType: 'invalidFilter' });

    expect((await entra('DELETE', `/Users/${id}`)).status).toBe(204);
    const gone = await entra('GET', `/Users/${id}`);
    expect(gone.status).toBe(404);
    expect(gone.body).toMatchObject({ schemas: [ERROR], status: '404' });
  });

  it('sets roles by group membership: Okta and Entra add and remove members', async () => {
    const saved = await admin.put(
      '/api/v1/company/scim-role-groups',
      { admin_group: 'StatusWatch Admins', viewer_group: 'StatusWatch Viewers' },
      A,
    );
    expect(saved.status).toBe(200);
    expect(saved.body).toMatchObject({ admin_group: 'StatusWatch Admins', viewer_group: 'StatusWatch Viewers' });
    const kim = (
      await okta('POST', '/Users', {
        schemas: [USER],
        userName: 'kim@acme.example',
        name: { givenName: 'Kim', familyName: 'Park' },
        active: true,
      })
    ).body.id;
    const lou = (
      await okta('POST', '/Users', {
        schemas: [USER],
        userName: 'lou@acme.example',
        name: { givenName: 'Lou', familyName: 'Ng' },
        active: true,
      })
    ).body.id;
    const typeOf = async (id: string) =>
      (await t.services.db.k.selectFrom('users').select('user_type').where('id', '=', id).executeTakeFirstOrThrow()).user_type;
    expect(await typeOf(kim)).toBe(3);

    // Okta pushes a group with Kim in it (Okta's group create, then membership by PATCH)
    const admins = await okta('POST', '/Groups', {
      schemas: [GROUP],
      displayName: 'StatusWatch Admins',
      members: [{ value: kim, display: 'kim@acme.example' }],
    });
    expect(admins.status).toBe(201);
    expect(admins.body.members).toEqual([
      { value: kim, display: 'kim@acme.example', $ref: `http://acme.localhost:${t.port}/scim/v2/Users/${kim}` },
    ]);
    expect(await typeOf(kim)).toBe(2);
    const added = await okta('PATCH', `/Groups/${admins.body.id}`, {
      schemas: [PATCH_OP],
      Operations: [{ op: 'add', path: 'members', value: [{ value: lou, display: 'lou@acme.example' }] }],
    });
    expect(added.body.members.map((m: any) => m.value).sort()).toEqual([kim, lou].sort());
    expect(await typeOf(lou)).toBe(2);
    const removed = await okta('PATCH', `/Groups/${admins.body.id}`, {
      schemas: [PATCH_OP],
      Operations: [{ op: 'remove', path: `members[value eq "${kim}"]` }],
    });
    expect(removed.body.members.map((m: any) => m.value)).toEqual([lou]);
    expect(await typeOf(kim)).toBe(3);

    // Entra ID's group (its create body) and its Add / Remove with a member list
    const viewers = await entra('POST', '/Groups', {
      schemas: [GROUP, 'http://schemas.microsoft.com/2006/11/ResourceManagement/ADSCIM/Group'],
      externalId: '8aa1a0c0-c4c3-4bc0-b4a5-2ef676900159',
      displayName: 'StatusWatch Viewers',
      meta: { resourceType: 'Group' },
    });
    expect(viewers.status).toBe(201);
    const listed = await entra(
      'GET',
      `/Groups?excludedAttributes=members&filter=${encodeURIComponent('displayName eq "StatusWatch Viewers"')}`,
    );
    expect(listed.body.Resources).toHaveLength(1);
    expect(listed.body.Resources[0].members).toBeUndefined();
    await entra('PATCH', `/Groups/${viewers.body.id}`, {
      schemas: [PATCH_OP],
      Operations: [{ op: 'Add', path: 'members', value: [{ $ref: null, value: lou }] }],
    });
    // in both groups: admin wins
    expect(await typeOf(lou)).toBe(2);
    await entra('PATCH', `/Groups/${admins.body.id}`, {
      schemas: [PATCH_OP],
      Operations: [{ op: 'Remove', path: 'members', value: [{ $ref: null, value: lou }] }],
    });
    expect(await typeOf(lou)).toBe(3);
    const role = await t.services.db.k
      .selectFrom('audit_events')
      .select('details')
      .where('event', '=', 'user_role_change')
      .where('tenant_id', '=', acmeId)
      .execute();
    expect(role.map((r) => JSON.parse(r.details ?? '{}').source)).toEqual(['scim', 'scim', 'scim', 'scim']);
  });

  it("keeps another company's token out of this company's users", async () => {
    const mine = (await okta('GET', '/Users')).body.Resources as any[];
    const someone = mine.find((u) => u.userName === 'admin@acme.example');
    const listed = await globexScim('GET', '/Users');
    expect(listed.body.Resources.map((u: any) => u.userName)).not.toContain('admin@acme.example');
    expect((await globexScim('GET', `/Users/${someone.id}`)).status).toBe(404);
    const patched = await globexScim('PATCH', `/Users/${someone.id}`, {
      schemas: [PATCH_OP],
      Operations: [{ op: 'replace', value: { active: false } }],
    });
    expect(patched.status).toBe(404);
    expect((await globexScim('DELETE', `/Users/${someone.id}`)).status).toBe(404);
    const group = await globexScim('POST', '/Groups', { schemas: [GROUP], displayName: 'Sneaky', members: [{ value: someone.id }] });
    expect(group.status).toBe(400);
    expect(group.body.scimType).toBe('invalidValue');
    // and its token on this company's address is refused
    const onAcme = await scimClient(t, 'acme.localhost', globexToken, 'Okta SCIM Client 1.0.0')('GET', '/Users');
    expect(onAcme.status).toBe(403);
    expect(onAcme.body.detail).toMatch(/another company/);
    expect((await scimClient(t, 'acme.localhost', 'sws_not-a-token', 'x')('GET', '/Users')).status).toBe(401);
    expect((await okta('GET', `/Users/${someone.id}`)).body.active).toBe(true);
  });

  it('refuses a full company with a clear detail', async () => {
    const count = (await okta('GET', '/Users?count=0')).body.totalResults as number;
    for (let i = count; i < 6; i++)
      expect((await okta('POST', '/Users', { schemas: [USER], userName: `filler${i}@acme.example` })).status).toBe(201);
    const full = await okta('POST', '/Users', { schemas: [USER], userName: 'one.too.many@acme.example', active: true });
    expect(full.status).toBe(400);
    expect(full.body.detail).toMatch(/Acme already has its maximum of 6 users/);
  });

  it('throttles each token on its own: 429 tooMany with Retry-After, the other company unaffected', async () => {
    // a small window for the test; the real one allows 1,200 calls a minute (scim/caller.ts)
    t.services.state.scimCalls = new SlidingWindow(3, 60_000);
    for (let i = 0; i < 3; i++) expect((await okta('GET', '/ServiceProviderConfig')).status).toBe(200);
    const limited = await okta('GET', '/Users');
    expect(limited.status).toBe(429);
    expect(limited.body).toMatchObject({ schemas: [ERROR], status: '429', scimType: 'tooMany' });
    expect(Number(limited.retryAfter)).toBeGreaterThan(0);
    expect((await globexScim('GET', '/Users')).status).toBe(200);
    t.services.state.scimCalls = undefined;
  });

  it('refuses a revoked token with 401', async () => {
    expect((await admin.delete('/api/v1/company/scim-token', A)).status).toBe(200);
    const after = await okta('GET', '/Users');
    expect(after.status).toBe(401);
    expect(after.body).toMatchObject({ schemas: [ERROR], status: '401' });
    expect(after.body.detail).toMatch(/revoked/);
    expect((await admin.get('/api/v1/company/scim-token', A)).body.token).toBeNull();
  });
});
