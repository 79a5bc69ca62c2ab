// Single sign-on with SAML 2.0 (issue 31) on both databases, against a fixture identity provider
// on loopback (tests/fixtures/saml/idp.ts) that signs real responses and assertions with a test
// key (xml-crypto, the library node-saml verifies with): the settings (certificates checked on
// save, IdP metadata pasted, SP metadata downloaded), SP- and IdP-initiated sign-in with JIT
// creation, roles from the group attribute refreshed at each sign-in, linking an existing user,
// Require SSO, the main host's e-mail start by form, and every refusal: unsigned, another key,
// audience, recipient, destination, times, InResponseTo unknown or used, a replayed assertion,
// XML signature wrapping (XSW1-XSW8), another company's IdP, an e-mail outside the domains.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DOMParser } from '@xmldom/xmldom';
import { DB_KINDS } from '../../support/test-db.ts';
import { ApiClient, startTestApp, type TestApp } from '../../support/test-app.ts';
import { seedCompany, seedUser, signIn } from '../../support/fixtures.ts';
import { makeKeyAndCert, samlId, startSamlIdp, wrap, type AnswerOptions, type SamlIdp, type XswShape } from '../../fixtures/saml/idp.ts';
import { newId } from '../../../src/server/domain/ids.ts';
import { SSO_REQUIRED_MESSAGE } from '../../../src/lib/sso-messages.ts';

describe.each(DB_KINDS)('single sign-on with SAML 2.0 on %s', (kind) => {
  let t: TestApp;
  let idp: SamlIdp;
  let globexIdp: SamlIdp;
  let clock = Date.parse('2026-06-01T09:00:00Z');
  let acme: { id: string; subdomain: string };
  let globex: { id: string; subdomain: string };
  let acmeHost: string;
  let globexHost: string;
  let acs: string;
  let entityId: string;
  let admin: Awaited<ReturnType<typeof seedUser>>;
  let adminClient: ApiClient;

  async function verifyDomain(companyId: string, hostname: string) {
    await t.services.db.k
      .insertInto('security_assets')
      .values({
        id: newId(),
        company_id: companyId,
        hostname,
        kind: 'domain',
        verification_token: newId(),
        verification_method: 'dns_txt',
        verified_at: clock,
        last_verification_at: clock,
        last_verification_error: null,
        verified_addresses: null,
        renewal_reason: null,
        renewal_needed_at: null,
        created_at: clock,
        updated_at: clock,
      } as never)
      .execute();
  }

  const settings = (over: Record<string, unknown> = {}) => ({
    protocol: 'saml',
    idp_sso_url: idp.ssoUrl,
    idp_entity_id: idp.entityId,
    idp_certificates: idp.certPem,
    email_attribute: null,
    group_claim: 'groups',
    group_roles: [{ group: 'sw-admins', role: 'admin' }],
    default_role: 'viewer',
    domains: ['acme.example'],
    ...over,
  });

  /** The IdP's page posts the form to our ACS: cross-site, from its own origin. */
  async function postAcs(c: ApiClient, form: URLSearchParams, host = acmeHost, from = idp) {
    return c.request('POST', '/api/v1/auth/sso/saml/acs', {
      host,
      raw: form.toString(),
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        origin: new URL(from.ssoUrl).origin,
        'sec-fetch-site': 'cross-site',
      },
    });
  }

  /** "Sign in with SSO" on `host`: where our start sends the browser (the IdP's redirect-binding address). */
  async function start(c: ApiClient, host = acmeHost, query = '') {
    const r = await c.get(`/api/v1/auth/sso/start${query}`, { host });
    expect(r.status, r.text).toBe(303);
    return r.headers.get('location')!;
  }

  /** SP-initiated: start, the IdP answers for `login` (with `over`), the browser posts it to our ACS. */
  async function samlSignIn(login: string, over: Partial<AnswerOptions> = {}, opts: { host?: string; query?: string } = {}) {
    const host = opts.host ?? acmeHost;
    const c = new ApiClient(t.baseUrl, host);
    const location = await start(c, host, opts.query);
    expect(location.startsWith(idp.ssoUrl), location).toBe(true);
    const { form } = idp.answer(location, login, over);
    const back = await postAcs(c, form, host);
    expect(back.status, back.text).toBe(303);
    return { client: c, landed: back.headers.get('location')!, form, location };
  }

  const lastAudit = async (event: string) =>
    t.services.db.k
      .selectFrom('audit_events')
      .selectAll()
      .where('event', '=', event)
      .orderBy('timestamp', 'desc')
      .orderBy('id', 'desc')
      .executeTakeFirst();

  /** The reason the last refusal was audited with (and the throttle's memory of it left behind). */
  async function refusal() {
    const a = await lastAudit('sso_login_failed');
    clock += 2 * 3_600_000;
    adminClient = new ApiClient(t.baseUrl, acmeHost);
    await signIn(adminClient, admin);
    clock += 1_000;
    return { tenant: a!.tenant_id, ...(JSON.parse(a!.details!) as { reason: string; detail: string }) };
  }

  const me = (c: ApiClient, host = acmeHost) => c.get('/api/v1/auth/me', { host });

  beforeAll(async () => {
    t = await startTestApp({ db: kind, now: () => clock });
    acme = await seedCompany(t.services, { subdomain: 'acme', plan: 'enterprise', max_users: 20 });
    globex = await seedCompany(t.services, { subdomain: 'globex', plan: 'enterprise' });
    acmeHost = `acme.${t.config.productDomain}`;
    globexHost = `globex.${t.config.productDomain}`;
    acs = `http://${acmeHost}:${t.port}/api/v1/auth/sso/saml/acs`;
    entityId = `http://${acmeHost}:${t.port}/api/v1/auth/sso/saml`;
    idp = await startSamlIdp({ now: () => clock, name: 'acme-idp' });
    globexIdp = await startSamlIdp({ now: () => clock, name: 'globex-idp' });
    await verifyDomain(acme.id, 'acme.example');
    await verifyDomain(globex.id, 'globex.example');
    admin = await seedUser(t.services, { userType: 2, companyId: acme.id, email: 'admin@acme.example' });
    idp.users.set('ada', { nameId: 'ada@acme.example', attributes: { groups: ['sw-admins', 'staff'], displayName: 'Ada Lovelace' } });
    idp.users.set('bob', { nameId: 'Bob@Acme.example', attributes: { groups: 'staff' } });
    idp.users.set('carol', { nameId: 'carol@acme.example', attributes: { groups: ['sw-admins'] } });
    idp.users.set('dan', { nameId: 'dan@elsewhere.example' });
    idp.users.set('hal', { nameId: 'hal@acme.example', attributes: { groups: ['sw-admins'] } });
    globexIdp.users.set('gina', { nameId: 'gina@globex.example' });
    globexIdp.users.set('ada', { nameId: 'ada@acme.example', attributes: { groups: ['sw-admins'] } });
  });
  afterAll(async () => {
    await idp?.close();
    await globexIdp?.close();
    await t?.close();
  });
  beforeEach(async () => {
    clock += 2 * 3_600_000;
    adminClient = new ApiClient(t.baseUrl, acmeHost);
    await signIn(adminClient, admin);
    clock += 1_000;
  });

  it('settings: certificates checked on save, IdP metadata pasted fills the values, SP values shown, audited', async () => {
    const before = await adminClient.get('/api/v1/company/sso');
    expect(before.status, before.text).toBe(200);
    expect(before.body).toMatchObject({ configured: false, sp_entity_id: entityId, acs_url: acs, saml: null });

    const garbage = await adminClient.put('/api/v1/company/sso', settings({ idp_certificates: 'not a certificate' }));
    expect(garbage.status).toBe(400);
    expect(garbage.body.errors.idp_certificates).toBe('The certificate does not parse as an X.509 certificate');
    const expired = await makeKeyAndCert('Old IdP', clock - 400 * 86_400_000, clock - 86_400_000);
    const old = await adminClient.put('/api/v1/company/sso', settings({ idp_certificates: expired.certPem }));
    expect(old.status).toBe(400);
    expect(old.body.errors.idp_certificates).toMatch(/^The certificate expired on \d{4}-\d{2}-\d{2}$/);
    const missing = await adminClient.put('/api/v1/company/sso', settings({ idp_sso_url: undefined, idp_entity_id: undefined }));
    expect(missing.status).toBe(400);
    expect(Object.keys(missing.body.errors).sort()).toEqual(['idp_entity_id', 'idp_sso_url']);
    const notMetadata = await adminClient.put('/api/v1/company/sso', {
      protocol: 'saml',
      idp_metadata_xml: '<html>no</html>',
      default_role: 'viewer',
      domains: ['acme.example'],
    });
    expect(notMetadata.status).toBe(400);
    expect(notMetadata.body.errors.idp_metadata_xml).toContain('not SAML identity provider metadata');

    const saved = await adminClient.put('/api/v1/company/sso', {
      protocol: 'saml',
      idp_metadata_xml: idp.metadataXml(),
      group_claim: 'groups',
      group_roles: [{ group: 'sw-admins', role: 'admin' }],
      default_role: 'viewer',
      domains: ['acme.example'],
    });
    expect(saved.status, saved.text).toBe(200);
    expect(saved.body).toMatchObject({
      configured: true,
      protocol: 'saml',
      issuer: null,
      client_id: null,
      group_claim: 'groups',
      saml: { idp_sso_url: idp.ssoUrl, idp_entity_id: idp.entityId, email_attribute: null, allow_idp_initiated: false },
    });
    expect(saved.body.saml.idp_certificates).toHaveLength(1);
    expect(saved.body.saml.idp_certificates[0].subject).toBe('CN=acme-idp');
    const audit = JSON.parse((await lastAudit('settings_update'))!.details!);
    expect(audit).toMatchObject({ sso: 'create', protocol: 'saml', idp_entity_id: idp.entityId });
    expect(audit.idp_certificates).toEqual([saved.body.saml.idp_certificates[0].fingerprint_sha256]);
    // saved again without certificates: the stored ones are kept
    const kept = await adminClient.put('/api/v1/company/sso', settings({ idp_certificates: undefined }));
    expect(kept.status, kept.text).toBe(200);
    expect(kept.body.saml.idp_certificates).toEqual(saved.body.saml.idp_certificates);
    // an OIDC body is still told apart from a SAML one
    const mixed = await adminClient.put('/api/v1/company/sso', settings({ client_id: 'x' }));
    expect(mixed.status).toBe(400);
  });

  it('SP metadata: a download for company admins with our entity ID and ACS, read back by an XML parser', async () => {
    const r = await adminClient.get('/api/v1/company/sso/saml/metadata');
    expect(r.status, r.text).toBe(200);
    expect(r.headers.get('content-type')).toContain('application/samlmetadata+xml');
    expect(r.headers.get('content-disposition')).toBe('attachment; filename="statuswatch-acme-saml-metadata.xml"');
    let broken = false;
    const doc = new DOMParser({ errorHandler: { error: () => (broken = true), fatalError: () => (broken = true) } }).parseFromString(
      r.text,
      'text/xml',
    );
    expect(broken).toBe(false);
    const md = 'urn:oasis:names:tc:SAML:2.0:metadata';
    expect(doc.documentElement!.getAttribute('entityID')).toBe(entityId);
    const acsEl = Array.from(doc.getElementsByTagNameNS(md, 'AssertionConsumerService'))[0];
    expect(acsEl.getAttribute('Location')).toBe(acs);
    expect(acsEl.getAttribute('Binding')).toBe('urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST');
    expect(Array.from(doc.getElementsByTagNameNS(md, 'SPSSODescriptor'))[0].getAttribute('WantAssertionsSigned')).toBe('true');
    expect((await new ApiClient(t.baseUrl, acmeHost).get('/api/v1/company/sso/saml/metadata')).status).toBe(401);
  });

  it('SP-initiated: the AuthnRequest names us, and a new person is created just in time as admin from the group attribute', async () => {
    const c = new ApiClient(t.baseUrl, acmeHost);
    const location = await start(c);
    const req = idp.readRequest(location);
    expect(req).toMatchObject({ acs, issuer: entityId });
    expect(req.id).toMatch(/^_/);
    expect(req.relayState).toBeTruthy();
    const back = await postAcs(c, idp.answer(location, 'ada').form);
    expect(back.headers.get('location')).toBe('/dashboard');
    const who = await me(c);
    expect(who.status, who.text).toBe(200);
    expect(who.body).toMatchObject({ email: 'ada@acme.example', full_name: 'Ada Lovelace', role: 'customer_admin', company_id: acme.id });
    expect(JSON.parse((await lastAudit('user_create'))!.details!)).toMatchObject({ via: 'sso', protocol: 'saml', role: 'admin' });
    expect(JSON.parse((await lastAudit('user_login'))!.details!)).toMatchObject({ via: 'sso', protocol: 'saml', created: true });
  });

  it('the default role without a mapped group; e-mails lower-case; an existing user is linked with their own role', async () => {
    const bob = await samlSignIn('bob');
    expect((await me(bob.client)).body).toMatchObject({ email: 'bob@acme.example', role: 'customer_viewer' });
    const carol = await seedUser(t.services, { userType: 3, companyId: acme.id, email: 'carol@acme.example' });
    const r = await samlSignIn('carol');
    expect((await me(r.client)).body).toMatchObject({ id: carol.id, role: 'customer_viewer' });
  });

  it('the role of a JIT user follows the group attribute at each sign-in, audited; a linked user keeps theirs', async () => {
    expect((await me((await samlSignIn('hal')).client)).body.role).toBe('customer_admin');
    idp.users.set('hal', { nameId: 'hal@acme.example', attributes: { groups: ['staff'] } });
    clock += 1_000;
    const demoted = await samlSignIn('hal');
    expect((await me(demoted.client)).body.role).toBe('customer_viewer');
    expect(JSON.parse((await lastAudit('user_update'))!.details!)).toMatchObject({
      email: 'hal@acme.example',
      via: 'sso',
      role: { from: 'customer_admin', to: 'customer_viewer' },
    });
    // carol was created by an admin (linked, not JIT): her group says admin, her role stays
    expect((await me((await samlSignIn('carol')).client)).body.role).toBe('customer_viewer');
  });

  it('IdP-initiated: refused unless the company accepts it; then signed in, landing on the RelayState path, never twice', async () => {
    const unsolicited = () =>
      new URLSearchParams({
        SAMLResponse: idp.response({ acs, audience: entityId, inResponseTo: null, user: idp.users.get('ada')! }),
        RelayState: '/status-pages',
      });
    const c = new ApiClient(t.baseUrl, acmeHost);
    expect((await postAcs(c, unsolicited())).headers.get('location')).toBe('/login?sso_error=unsolicited');
    expect(await refusal()).toMatchObject({ reason: 'unsolicited', tenant: acme.id });

    expect((await adminClient.put('/api/v1/company/sso', settings({ allow_idp_initiated: true }))).status).toBe(200);
    const form = unsolicited();
    const ok = await postAcs(c, form);
    expect(ok.headers.get('location')).toBe('/status-pages');
    expect((await me(c)).body.email).toBe('ada@acme.example');
    // the same assertion posted again (a replay): the replay cache in the database refuses it
    const again = await postAcs(new ApiClient(t.baseUrl, acmeHost), form);
    expect(again.headers.get('location')).toBe('/login?sso_error=token');
    expect((await refusal()).detail).toMatch(/^saml: assertion _[0-9a-f]+ was already used \(replayed\)$/);
    // still checked like any answer: another audience is refused
    const wrong = new URLSearchParams({
      SAMLResponse: idp.response({ acs, audience: 'https://elsewhere.example/sp', inResponseTo: null, user: idp.users.get('ada')! }),
    });
    expect((await postAcs(c, wrong)).headers.get('location')).toBe('/login?sso_error=token');
    expect((await refusal()).detail).toMatch(/audience/i);
    expect((await adminClient.put('/api/v1/company/sso', settings({ allow_idp_initiated: false }))).status).toBe(200);
  });

  it('refuses unsigned answers, another key, a wrong audience, recipient or destination, and bad times, each audited', async () => {
    const impostor = await makeKeyAndCert('acme-idp', clock - 86_400_000, clock + 86_400_000);
    const cases: Array<[Partial<AnswerOptions>, RegExp]> = [
      [{ sign: 'none' }, /^saml: Invalid signature$/],
      [{ signer: impostor }, /^saml: Invalid signature$/],
      [{ sign: 'response', signer: impostor }, /^saml: Invalid signature$/],
      [{ audience: `http://${globexHost}:${t.port}/api/v1/auth/sso/saml` }, /audience/i],
      [{ recipient: `http://${globexHost}:${t.port}/api/v1/auth/sso/saml/acs` }, /Recipient .* is not this ACS/],
      [{ destination: 'https://elsewhere.example/acs' }, /Destination .* is not this ACS/],
      [{ issuer: 'https://other-idp.example' }, /issuer https:\/\/other-idp\.example is not/],
      [{ notBefore: Number.POSITIVE_INFINITY }, /NotBefore .* is in the future/],
    ];
    for (const [over, detail] of cases) {
      // (the clock moves on after each refusal: a time in the future is taken from it then)
      const r = await samlSignIn('ada', over.notBefore ? { notBefore: clock + 10 * 60_000 } : over);
      expect(r.landed, JSON.stringify(over)).toBe('/login?sso_error=token');
      expect((await me(r.client)).status).toBe(401);
      const why = await refusal();
      expect(why.detail, JSON.stringify(over)).toMatch(detail);
      expect(why.tenant).toBe(acme.id);
    }
    // expired: made at the IdP 10 minutes ago, valid 5 minutes
    const c = new ApiClient(t.baseUrl, acmeHost);
    const location = await start(c);
    const { form } = idp.answer(location, 'ada', { notBefore: clock - 10 * 60_000, notOnOrAfter: clock - 5 * 60_000 });
    expect((await postAcs(c, form)).headers.get('location')).toBe('/login?sso_error=token');
    expect((await refusal()).detail).toMatch(/NotOnOrAfter .* has passed/);
    // within the 60 s of clock skew both ways, accepted
    const skew = await samlSignIn('ada', { notBefore: clock + 30_000 });
    expect(skew.landed).toBe('/dashboard');
  });

  it('refuses an InResponseTo that is unknown or already used, and a replayed assertion', async () => {
    const c = new ApiClient(t.baseUrl, acmeHost);
    const location = await start(c);
    const relay = idp.readRequest(location).relayState!;
    const unknown = new URLSearchParams({
      SAMLResponse: idp.response({ acs, audience: entityId, inResponseTo: samlId(), user: idp.users.get('ada')! }),
      RelayState: relay,
    });
    expect((await postAcs(c, unknown)).headers.get('location')).toBe('/login?sso_error=expired');
    expect((await refusal()).detail).toMatch(/^InResponseTo _[0-9a-f]+ is not a request of this company$/);

    const ok = await samlSignIn('ada');
    expect(ok.landed).toBe('/dashboard');
    // the same posted form again: its assertion was seen
    clock += 1_000;
    expect((await postAcs(new ApiClient(t.baseUrl, acmeHost), ok.form)).headers.get('location')).toBe('/login?sso_error=token');
    expect((await refusal()).detail).toMatch(/was already used \(replayed\)/);
    // a new assertion (new ID) for the request already answered
    const second = idp.answer(ok.location, 'ada');
    expect((await postAcs(new ApiClient(t.baseUrl, acmeHost), second.form)).headers.get('location')).toBe('/login?sso_error=expired');
    expect((await refusal()).detail).toMatch(/^InResponseTo _\S+ was already used \(replayed\)$/);
    // a request of this company whose RelayState was swapped
    const c2 = new ApiClient(t.baseUrl, acmeHost);
    const loc2 = await start(c2);
    const swapped = idp.answer(loc2, 'ada').form;
    swapped.set('RelayState', 'another');
    expect((await postAcs(c2, swapped)).headers.get('location')).toBe('/login?sso_error=expired');
    expect((await refusal()).detail).toBe('the RelayState is not the one of the request it answers');
  });

  it.each(['xsw1', 'xsw2', 'xsw3', 'xsw4', 'xsw5', 'xsw6', 'xsw7', 'xsw8'] as XswShape[])(
    'refuses XML signature wrapping (%s): no one is signed in as the evil assertion says',
    async (shape) => {
      const c = new ApiClient(t.baseUrl, acmeHost);
      const location = await start(c);
      const req = idp.readRequest(location);
      const signed = idp.responseXml({
        acs,
        audience: entityId,
        inResponseTo: req.id,
        user: idp.users.get('bob')!,
        sign: shape === 'xsw1' || shape === 'xsw2' ? 'response' : 'assertion',
      });
      const form = new URLSearchParams({
        SAMLResponse: Buffer.from(wrap(signed, shape, 'admin@acme.example')).toString('base64'),
        RelayState: req.relayState!,
      });
      const r = await postAcs(c, form);
      expect(r.headers.get('location')).toBe('/login?sso_error=token');
      expect((await me(c)).status).toBe(401);
      const why = await refusal();
      expect(why.reason).toBe('token');
      // node-saml reads only what the signature covers: e.g. "multiple assertions", "Referenced node
      // does not refer to it's parent element", "ID cannot refer to more than one element"
      expect(why.detail).toMatch(/^saml: Invalid signature/);
    },
  );

  it("refuses another company's IdP: its answer posted to this company's ACS, and this company's for another host", async () => {
    // globex signs in with its own IdP
    const gAdmin = await seedUser(t.services, { userType: 2, companyId: globex.id, email: 'boss@globex.example' });
    const gc = new ApiClient(t.baseUrl, globexHost);
    await signIn(gc, gAdmin);
    const g = await gc.put('/api/v1/company/sso', {
      ...settings(),
      idp_sso_url: globexIdp.ssoUrl,
      idp_entity_id: globexIdp.entityId,
      idp_certificates: globexIdp.certPem,
      domains: ['globex.example'],
    });
    expect(g.status, g.text).toBe(200);
    const loc = await start(new ApiClient(t.baseUrl, globexHost), globexHost);
    // globex's IdP vouches for ada@acme.example, and the browser is made to post it to acme
    const { form } = globexIdp.answer(loc, 'ada');
    expect((await postAcs(new ApiClient(t.baseUrl, acmeHost), form, acmeHost, globexIdp)).headers.get('location')).toBe(
      '/login?sso_error=token',
    );
    expect((await refusal()).detail).toBe('saml: Invalid signature');
    // acme's genuine answer, made for acme, posted to globex's ACS
    const c = new ApiClient(t.baseUrl, acmeHost);
    const mine = idp.answer(await start(c), 'ada').form;
    expect((await postAcs(new ApiClient(t.baseUrl, globexHost), mine, globexHost)).headers.get('location')).toBe('/login?sso_error=token');
    const why = await refusal();
    expect(why.tenant).toBe(globex.id);
    expect(why.detail).toBe('saml: Invalid signature');
  });

  it('refuses an e-mail outside the configured domains, and creates no one', async () => {
    expect((await samlSignIn('dan')).landed).toBe('/login?sso_error=domain');
    expect((await refusal()).reason).toBe('domain');
    expect(await t.services.db.k.selectFrom('users').select('id').where('email', '=', 'dan@elsewhere.example').execute()).toEqual([]);
  });

  it('the e-mail attribute instead of the NameID when configured', async () => {
    expect((await adminClient.put('/api/v1/company/sso', settings({ email_attribute: 'mail' }))).status).toBe(200);
    idp.users.set('opaque', { nameId: 'u-83f1c2', attributes: { mail: 'Olga@acme.example' } });
    const r = await samlSignIn('opaque');
    expect(r.landed).toBe('/dashboard');
    expect((await me(r.client)).body.email).toBe('olga@acme.example');
    expect((await adminClient.put('/api/v1/company/sso', settings())).status).toBe(200);
  });

  it('starts on the main host from an e-mail posted in a form (never in the address), and continues on the company host', async () => {
    const main = new ApiClient(t.baseUrl, t.config.productDomain);
    const post = (email: string) =>
      main.request('POST', '/api/v1/auth/sso/start', {
        raw: new URLSearchParams({ email }).toString(),
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      });
    // A page that sends the browser on (a 303 after a form post would meet the console's form-action 'self').
    const onward = (html: string) =>
      new URL(/http-equiv="refresh" content="0;url=([^"]+)"/.exec(html)![1].replace(/&amp;/g, '&'), 'http://x');
    const r = await post('ada@acme.example');
    expect(r.status, r.text).toBe(200);
    expect(r.headers.get('content-type')).toContain('text/html');
    const to = onward(r.text);
    expect(to.host).toBe(`${acmeHost}:${t.port}`);
    expect(to.pathname + to.search).toBe('/api/v1/auth/sso/start');
    expect(r.text).not.toContain('ada');
    const unknown = await post('someone@unproven.example');
    expect(onward(unknown.text).pathname + onward(unknown.text).search).toBe('/login?sso_error=unknown_domain');
    await refusal();
    // the ACS takes forms only
    const json = await new ApiClient(t.baseUrl, acmeHost).post('/api/v1/auth/sso/saml/acs', { SAMLResponse: 'x' });
    expect(json.status).toBe(415);
  });

  it('Require SSO with SAML: passwords refused for the company, the break-glass admin kept, SAML signs in', async () => {
    const frank = await seedUser(t.services, { userType: 3, companyId: acme.id, email: 'frank@acme.example' });
    const on = await adminClient.put('/api/v1/company/sso', settings({ require_sso: true, break_glass_user_id: admin.id }));
    expect(on.status, on.text).toBe(200);
    const pw = await new ApiClient(t.baseUrl, acmeHost).post('/api/v1/auth/login', { email: frank.email, password: frank.password });
    expect(pw.status).toBe(403);
    expect(pw.body.detail).toBe(SSO_REQUIRED_MESSAGE);
    expect(
      (await new ApiClient(t.baseUrl, acmeHost).post('/api/v1/auth/login', { email: admin.email, password: admin.password })).status,
    ).toBe(200);
    idp.users.set('frank', { nameId: 'frank@acme.example' });
    const r = await samlSignIn('frank');
    expect(r.landed).toBe('/dashboard');
    expect((await me(r.client)).body.id).toBe(frank.id);
    expect((await adminClient.put('/api/v1/company/sso', settings({ require_sso: false }))).status).toBe(200);
  });
});
