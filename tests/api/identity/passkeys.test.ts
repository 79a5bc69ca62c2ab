// Passkeys (WebAuthn) on both databases, with a software authenticator (an ES256 key, 'none'
// attestation) answering the server's own options as a browser and authenticator would:
// enrolment on the account, the password-less sign-in, the passkey as the second factor after the
// password, and every refusal the ceremony owes: a bad, replayed or expired challenge, a wrong
// origin or RP ID, no user verification, a counter that went backwards, another user's passkey,
// another company's host, and a removed passkey. Each refusal is audited.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generate } from 'otplib';
import { DB_KINDS } from '../../support/test-db.ts';
import { ApiClient, startTestApp, type TestApp } from '../../support/test-app.ts';
import { seedCompany, seedUser, signIn } from '../../support/fixtures.ts';
import { createCredential, getAssertion, type SoftCredential } from '../../support/soft-authenticator.ts';

describe.each(DB_KINDS)('passkeys on %s', (kind) => {
  let t: TestApp;
  let clock = Date.parse('2026-06-01T09:00:00Z');
  let acmeHost: string;
  let globexHost: string;
  let acme: { id: string };
  let port: string;

  const originOf = (host: string) => `http://${host}:${port}`;

  /** A signed-in Acme user who enrolled one passkey (named `name`) on the Acme host. */
  async function enrolled(name = 'Laptop') {
    const user = await seedUser(t.services, { userType: 2, companyId: acme.id });
    const c = new ApiClient(t.baseUrl, acmeHost);
    await signIn(c, user);
    const opts = await c.post('/api/v1/account/passkeys/options', { password: user.password });
    expect(opts.status, opts.text).toBe(200);
    const { credential, response } = createCredential(opts.body.options, originOf(acmeHost));
    const reg = await c.post('/api/v1/account/passkeys', { challenge_id: opts.body.challenge_id, name, response });
    expect(reg.status, reg.text).toBe(201);
    return { user, client: c, credential, passkey: reg.body.passkey, recovery: reg.body.recovery_codes as string[] | undefined };
  }

  async function signInOptions(host = acmeHost) {
    const r = await new ApiClient(t.baseUrl, host).post('/api/v1/auth/passkey/options', undefined);
    expect(r.status, r.text).toBe(200);
    return r.body as { challenge_id: string; options: { challenge: string; rpId: string } };
  }

  async function passwordless(cred: SoftCredential, host = acmeHost, over: Parameters<typeof getAssertion>[3] = {}) {
    const o = await signInOptions(host);
    const c = new ApiClient(t.baseUrl, host);
    const r = await c.post('/api/v1/auth/passkey', {
      challenge_id: o.challenge_id,
      response: getAssertion(cred, o.options, originOf(host), over),
    });
    return { r, c, o };
  }

  async function refusals(userId: string) {
    const rows = await t.services.db.k
      .selectFrom('audit_events')
      .select(['details'])
      .where('event', '=', 'passkey_sign_in_failed')
      .where('user_id', '=', userId)
      .execute();
    return rows.map((r) => JSON.parse(r.details ?? '{}').reason as string);
  }

  beforeAll(async () => {
    // a product domain of the real kind (its subdomains may claim it as the RP ID)
    t = await startTestApp({ db: kind, now: () => clock, env: { PRODUCT_DOMAIN: 'statuswatch.test' } });
    port = new URL(t.baseUrl).port;
    acme = await seedCompany(t.services, { subdomain: 'acme' });
    await seedCompany(t.services, { subdomain: 'globex' });
    acmeHost = `acme.${t.config.productDomain}`;
    globexHost = `globex.${t.config.productDomain}`;
  });
  afterAll(async () => {
    await t?.close();
  });

  it('enrols: the password is asked again, the passkey is listed by name with its dates, the first one brings ten recovery codes', async () => {
    const user = await seedUser(t.services, { userType: 2, companyId: acme.id });
    const c = new ApiClient(t.baseUrl, acmeHost);
    await signIn(c, user);
    expect((await c.get('/api/v1/account/passkeys')).body).toEqual([]);
    const wrong = await c.post('/api/v1/account/passkeys/options', { password: 'Not-the-password-1' });
    expect(wrong.status).toBe(400);
    expect(wrong.body.errors.password).toBe('The password is not correct.');

    const opts = await c.post('/api/v1/account/passkeys/options', { password: user.password });
    // the product domain: one passkey for the company's host and the main host
    expect(opts.body.options.rp).toEqual({ name: 'StatusWatch', id: 'statuswatch.test' });
    expect(opts.body.options.authenticatorSelection).toMatchObject({ residentKey: 'required', userVerification: 'required' });
    const { credential, response } = createCredential(opts.body.options, originOf(acmeHost));
    const reg = await c.post('/api/v1/account/passkeys', { challenge_id: opts.body.challenge_id, name: '  Work laptop ', response });
    expect(reg.status, reg.text).toBe(201);
    expect(reg.body.passkey).toMatchObject({ name: 'Work laptop', created_at: new Date(clock).toISOString(), last_used_at: null });
    expect(reg.body.recovery_codes).toHaveLength(10);
    // counted on the account screen though no authenticator app is on
    expect((await c.get('/api/v1/auth/two-factor')).body).toEqual({ enabled: false, recovery_codes_left: 10 });
    // the same answer again: its challenge is spent
    const again = await c.post('/api/v1/account/passkeys', { challenge_id: opts.body.challenge_id, name: 'Again', response });
    expect(again.status).toBe(401);
    expect(again.body.detail).toMatch(/expired or was used already/);

    clock += 1000;
    // a second passkey: no new recovery codes (the first ones still stand), and the first is excluded
    const opts2 = await c.post('/api/v1/account/passkeys/options', { password: user.password });
    expect(opts2.body.options.excludeCredentials.map((x: { id: string }) => x.id)).toEqual([credential.id.toString('base64url')]);
    const reg2 = await c.post('/api/v1/account/passkeys', {
      challenge_id: opts2.body.challenge_id,
      name: 'Phone',
      response: createCredential(opts2.body.options, originOf(acmeHost)).response,
    });
    expect(reg2.status).toBe(201);
    expect(reg2.body.recovery_codes).toBeUndefined();
    expect((await c.get('/api/v1/account/passkeys')).body.map((p: { name: string }) => p.name)).toEqual(['Work laptop', 'Phone']);
    const audit = await t.services.db.k
      .selectFrom('audit_events')
      .select('details')
      .where('event', '=', 'user_update')
      .where('user_id', '=', user.id)
      .execute();
    expect(audit.filter((a) => a.details?.includes('passkey_added'))).toHaveLength(2);
  });

  it('refuses a registration from another origin, for another RP ID, without user verification, or on another host than its challenge', async () => {
    const user = await seedUser(t.services, { userType: 2, companyId: acme.id });
    const c = new ApiClient(t.baseUrl, acmeHost);
    await signIn(c, user);
    for (const over of [{ origin: 'http://evil.example:1' }, { rpId: 'evil.example' }, { userVerified: false }, { type: 'webauthn.get' }]) {
      const o = await c.post('/api/v1/account/passkeys/options', { password: user.password });
      const r = await c.post('/api/v1/account/passkeys', {
        challenge_id: o.body.challenge_id,
        name: 'X',
        response: createCredential(o.body.options, originOf(acmeHost), over).response,
      });
      expect(r.status, JSON.stringify(over)).toBe(400);
      expect(r.body.errors.response).toBe('Your passkey could not be verified. Please try again.');
    }
    expect((await c.get('/api/v1/account/passkeys')).body).toEqual([]);
  });

  it('signs in password-less with the passkey alone, records the use and the sign-in', async () => {
    const { user, credential, passkey } = await enrolled();
    clock += 60_000;
    const { r, c } = await passwordless(credential);
    expect(r.status, r.text).toBe(200);
    expect(r.body.user.email).toBe(user.email);
    expect((await c.get('/api/v1/auth/me')).body.email).toBe(user.email);
    const list = await c.get('/api/v1/account/passkeys');
    expect(list.body[0]).toMatchObject({ id: passkey.id, last_used_at: new Date(clock).toISOString() });
    const login = await t.services.db.k
      .selectFrom('audit_events')
      .select('details')
      .where('event', '=', 'user_login')
      .where('user_id', '=', user.id)
      .execute();
    expect(login.some((a) => JSON.parse(a.details ?? '{}').method === 'passkey')).toBe(true);
  });

  it('works on the main host too (the RP ID is the product domain), where it lands on the company host with a handoff link', async () => {
    const { user, credential } = await enrolled();
    const o = await signInOptions(t.config.productDomain);
    expect(o.options.rpId).toBe('statuswatch.test');
    const { r } = await passwordless(credential, t.config.productDomain);
    expect(r.status, r.text).toBe(200);
    expect(r.body.user.email).toBe(user.email);
    expect(r.body.redirect_to).toMatch(/^http:\/\/acme\.statuswatch\.test:\d+\/auth\/handoff\?code=/);
  });

  it('refuses a replayed, a foreign, an expired or a mismatched challenge, with a message for the user and a row in the audit log', async () => {
    const { user, credential } = await enrolled();
    // replayed: the same challenge answered twice
    const o = await signInOptions();
    const first = await new ApiClient(t.baseUrl, acmeHost).post('/api/v1/auth/passkey', {
      challenge_id: o.challenge_id,
      response: getAssertion(credential, o.options, originOf(acmeHost)),
    });
    expect(first.status).toBe(200);
    const replay = await new ApiClient(t.baseUrl, acmeHost).post('/api/v1/auth/passkey', {
      challenge_id: o.challenge_id,
      response: getAssertion(credential, o.options, originOf(acmeHost)),
    });
    expect(replay.status).toBe(401);
    expect(replay.body.errors.passkey).toBe('This passkey request has expired or was used already. Please try again.');
    expect(replay.headers.getSetCookie()).toEqual([]);

    // bad challenge: the authenticator signed another challenge than the one named
    const o2 = await signInOptions();
    const bad = await new ApiClient(t.baseUrl, acmeHost).post('/api/v1/auth/passkey', {
      challenge_id: o2.challenge_id,
      response: getAssertion(credential, o2.options, originOf(acmeHost), {
        challenge: Buffer.from('not-the-challenge').toString('base64url'),
      }),
    });
    expect(bad.status).toBe(401);
    expect(bad.body.errors.passkey).toBe('Your passkey could not be verified. Please try again.');

    // issued on the main host, answered on Acme's
    const o3 = await signInOptions(t.config.productDomain);
    const foreign = await new ApiClient(t.baseUrl, acmeHost).post('/api/v1/auth/passkey', {
      challenge_id: o3.challenge_id,
      response: getAssertion(credential, o3.options, originOf(acmeHost)),
    });
    expect(foreign.status).toBe(401);

    // expired: five minutes later
    const o4 = await signInOptions();
    clock += 5 * 60_000 + 1;
    const late = await new ApiClient(t.baseUrl, acmeHost).post('/api/v1/auth/passkey', {
      challenge_id: o4.challenge_id,
      response: getAssertion(credential, o4.options, originOf(acmeHost)),
    });
    expect(late.status).toBe(401);
    expect(late.body.detail).toMatch(/expired/);
    const reasons = await refusals(user.id);
    expect(reasons).toHaveLength(4);
    expect(reasons.filter((x) => x.startsWith('challenge'))).toHaveLength(3);
  });

  it('refuses a wrong origin, a wrong RP ID and a passkey that did not verify the user', async () => {
    const { user, credential } = await enrolled();
    for (const over of [
      { origin: 'http://evil.example' },
      { origin: originOf(globexHost) },
      { rpId: 'evil.example' },
      { userVerified: false },
    ]) {
      clock += 60_000; // past the back-off that wrong answers earn (tested below)
      const { r } = await passwordless(credential, acmeHost, over);
      expect(r.status, JSON.stringify(over)).toBe(401);
      expect(r.body.errors.passkey).toBe('Your passkey could not be verified. Please try again.');
    }
    expect(await refusals(user.id)).toHaveLength(4);
    // throttled like the password sign-in: after these, even the right answer waits ...
    const waits = (await passwordless(credential)).r;
    expect(waits.status).toBe(429);
    expect(Number(waits.headers.get('retry-after'))).toBeGreaterThan(0);
    // ... and works once the back-off has passed
    clock += 60_000;
    expect((await passwordless(credential)).r.status).toBe(200);
  });

  it('refuses a signature counter that went backwards (a copied authenticator)', async () => {
    const { user, credential } = await enrolled();
    expect((await passwordless(credential)).r.status).toBe(200);
    expect((await passwordless(credential)).r.status).toBe(200);
    credential.counter = 1; // the copy still holds the counter of the day it was copied
    const { r } = await passwordless(credential);
    expect(r.status).toBe(401);
    expect(r.body.errors.passkey).toMatch(/signature counter went backwards/);
    expect((await refusals(user.id)).some((x) => x.startsWith('counter regression'))).toBe(true);
  });

  it("signs in its own user only: another user's passkey is no second factor, and on another company's host it signs in nobody", async () => {
    const a = await enrolled();
    const b = await enrolled();
    // b's password, a's passkey
    const o = await signInOptions();
    const r = await new ApiClient(t.baseUrl, acmeHost).post('/api/v1/auth/login', {
      email: b.user.email,
      password: b.user.password,
      passkey: { challenge_id: o.challenge_id, response: getAssertion(a.credential, o.options, originOf(acmeHost)) },
    });
    expect(r.status).toBe(401);
    expect(r.body.errors.passkey).toBe('This passkey belongs to another account.');
    expect(r.headers.getSetCookie()).toEqual([]);
    expect(await refusals(b.user.id)).toEqual(["another user's credential"]);

    // Acme's user on Globex's host, with a passkey that verifies there (same RP ID)
    const g = await passwordless(a.credential, globexHost);
    expect(g.r.status).toBe(403);
    expect(g.r.body.detail).toMatch(/another company/);
    expect(g.r.headers.getSetCookie()).toEqual([]);
  });

  it('is a second factor after the password; a passkey, a recovery code or nothing', async () => {
    const { user, credential, recovery } = await enrolled();
    const c = new ApiClient(t.baseUrl, acmeHost);
    const ask = await c.post('/api/v1/auth/login', { email: user.email, password: user.password });
    expect(ask.status).toBe(401);
    expect(ask.body.errors.passkey).toBe('Use one of your passkeys, or a recovery code.');
    expect(ask.headers.getSetCookie()).toEqual([]);
    // without user verification: the password was the other factor
    const o = await signInOptions();
    const ok = await c.post('/api/v1/auth/login', {
      email: user.email,
      password: user.password,
      passkey: { challenge_id: o.challenge_id, response: getAssertion(credential, o.options, originOf(acmeHost), { userVerified: false }) },
    });
    expect(ok.status, ok.text).toBe(200);
    expect((await c.get('/api/v1/auth/me')).body.email).toBe(user.email);
    const rc = await new ApiClient(t.baseUrl, acmeHost).post('/api/v1/auth/login', {
      email: user.email,
      password: user.password,
      recovery_code: recovery![0],
    });
    expect(rc.status).toBe(200);
  });

  it('wrong passkeys at the second step are throttled like wrong codes: after five, even the right one waits', async () => {
    const a = await enrolled();
    const b = await enrolled();
    const secondStep = async (cred: SoftCredential) => {
      const o = await signInOptions();
      return new ApiClient(t.baseUrl, acmeHost).post('/api/v1/auth/login', {
        email: b.user.email,
        password: b.user.password,
        passkey: { challenge_id: o.challenge_id, response: getAssertion(cred, o.options, originOf(acmeHost)) },
      });
    };
    for (let i = 0; i < 5; i++) expect((await secondStep(a.credential)).status).toBe(401);
    const waits = await secondStep(b.credential);
    expect(waits.status).toBe(429);
    expect(waits.body.detail).toMatch(/Too many wrong codes/);
    clock += 16 * 60_000;
    expect((await secondStep(b.credential)).status).toBe(200);
  });

  it('with an authenticator app too: either factor works, and turning the app off keeps the recovery codes for the passkey', async () => {
    const { user, client, credential } = await enrolled();
    const start = await client.post('/api/v1/auth/two-factor/start', undefined);
    const codeAt = (ms: number) => generate({ secret: start.body.secret, epoch: Math.floor(ms / 1000) });
    const on = await client.post('/api/v1/auth/two-factor/confirm', { code: await codeAt(clock) });
    expect(on.status, on.text).toBe(200);
    clock += 30_000;
    const ask = await new ApiClient(t.baseUrl, acmeHost).post('/api/v1/auth/login', { email: user.email, password: user.password });
    expect(ask.status).toBe(401);
    expect(ask.body.errors).toMatchObject({
      totp_code: expect.stringMatching(/passkeys, or enter the 6-digit code/),
      passkey: expect.any(String),
    });
    const byCode = await new ApiClient(t.baseUrl, acmeHost).post('/api/v1/auth/login', {
      email: user.email,
      password: user.password,
      totp_code: await codeAt(clock),
    });
    expect(byCode.status, byCode.text).toBe(200);
    const o = await signInOptions();
    const byPasskey = await new ApiClient(t.baseUrl, acmeHost).post('/api/v1/auth/login', {
      email: user.email,
      password: user.password,
      passkey: { challenge_id: o.challenge_id, response: getAssertion(credential, o.options, originOf(acmeHost)) },
    });
    expect(byPasskey.status, byPasskey.text).toBe(200);

    expect((await client.post('/api/v1/auth/two-factor/disable', { password: user.password })).status).toBe(200);
    const after = await new ApiClient(t.baseUrl, acmeHost).post('/api/v1/auth/login', { email: user.email, password: user.password });
    expect(after.body.errors).toEqual({ passkey: 'Use one of your passkeys, or a recovery code.' });
    const rc = await new ApiClient(t.baseUrl, acmeHost).post('/api/v1/auth/login', {
      email: user.email,
      password: user.password,
      recovery_code: on.body.recovery_codes[0],
    });
    expect(rc.status, rc.text).toBe(200);
  });

  it('renames and removes (with the password); a removed passkey signs in nobody, another user’s is 404', async () => {
    const { user, client, credential, passkey } = await enrolled();
    const other = await enrolled();
    const renamed = await client.patch(`/api/v1/account/passkeys/${passkey.id}`, { name: 'Old laptop' });
    expect(renamed.status).toBe(200);
    expect(renamed.body.name).toBe('Old laptop');
    expect((await client.patch(`/api/v1/account/passkeys/${other.passkey.id}`, { name: 'Mine now' })).status).toBe(404);
    expect((await client.patch(`/api/v1/account/passkeys/${passkey.id}`, { name: '   ' })).body.errors.name).toBe(
      'Give the passkey a name.',
    );
    const notMine = await client.post(`/api/v1/account/passkeys/${other.passkey.id}/remove`, { password: user.password });
    expect(notMine.status, notMine.text).toBe(404);
    const noPw = await client.post(`/api/v1/account/passkeys/${passkey.id}/remove`, {});
    expect(noPw.status).toBe(400);
    expect(noPw.body.errors.password).toBe('Enter your password to confirm.');

    const gone = await client.post(`/api/v1/account/passkeys/${passkey.id}/remove`, { password: user.password });
    expect(gone.status, gone.text).toBe(200);
    expect((await client.get('/api/v1/account/passkeys')).body).toEqual([]);
    const { r } = await passwordless(credential);
    expect(r.status).toBe(401);
    expect(r.body.errors.passkey).toMatch(/not registered/);
    // its last second factor gone, the password alone signs in again and the recovery codes are gone
    expect(
      (await new ApiClient(t.baseUrl, acmeHost).post('/api/v1/auth/login', { email: user.email, password: user.password })).status,
    ).toBe(200);
    const codes = await t.services.db.k.selectFrom('totp_recovery_codes').select('id').where('user_id', '=', user.id).execute();
    expect(codes).toEqual([]);
    const audit = await t.services.db.k
      .selectFrom('audit_events')
      .select('details')
      .where('event', '=', 'user_update')
      .where('user_id', '=', user.id)
      .execute();
    expect(audit.map((a) => JSON.parse(a.details ?? '{}').change)).toEqual(
      expect.arrayContaining(['passkey_added', 'passkey_renamed', 'passkey_removed']),
    );
  });
});

describe.each(DB_KINDS)('passkeys with PRODUCT_DOMAIN=localhost on %s', (kind) => {
  let t: TestApp;
  afterAll(async () => {
    await t?.close();
  });

  it('uses the host itself as the RP ID (browsers refuse "localhost" to acme.localhost), so a passkey works where it was added', async () => {
    t = await startTestApp({ db: kind });
    expect(t.config.productDomain).toBe('localhost');
    const port = new URL(t.baseUrl).port;
    const acme = await seedCompany(t.services, { subdomain: 'acme' });
    await seedCompany(t.services, { subdomain: 'globex' });
    const user = await seedUser(t.services, { userType: 2, companyId: acme.id });
    const c = new ApiClient(t.baseUrl, 'acme.localhost');
    await signIn(c, user);
    const opts = await c.post('/api/v1/account/passkeys/options', { password: user.password });
    expect(opts.body.options.rp.id).toBe('acme.localhost');
    const { credential, response } = createCredential(opts.body.options, `http://acme.localhost:${port}`);
    expect((await c.post('/api/v1/account/passkeys', { challenge_id: opts.body.challenge_id, name: 'Dev', response })).status).toBe(201);
    const here = await new ApiClient(t.baseUrl, 'acme.localhost').post('/api/v1/auth/passkey/options', undefined);
    expect(here.body.options.rpId).toBe('acme.localhost');
    const ok = await new ApiClient(t.baseUrl, 'acme.localhost').post('/api/v1/auth/passkey', {
      challenge_id: here.body.challenge_id,
      response: getAssertion(credential, here.body.options, `http://acme.localhost:${port}`),
    });
    expect(ok.status, ok.text).toBe(200);
    // on another host the browser would not offer it; answered anyway, the RP ID does not match
    const there = await new ApiClient(t.baseUrl, 'globex.localhost').post('/api/v1/auth/passkey/options', undefined);
    const refused = await new ApiClient(t.baseUrl, 'globex.localhost').post('/api/v1/auth/passkey', {
      challenge_id: there.body.challenge_id,
      response: getAssertion(
        credential,
        { challenge: there.body.options.challenge, rpId: 'acme.localhost' },
        `http://globex.localhost:${port}`,
      ),
    });
    expect(refused.status).toBe(401);
  });
});
