// First run on both databases: /setup's form (through the page services it calls) creates one
// super admin, once, even when several forms arrive at the same moment, and signs them in.
import { afterEach, describe, expect, it } from 'vitest';
import { DB_KINDS } from '../../support/test-db.ts';
import { startTestApp, type TestApp } from '../../support/test-app.ts';
import { createPageServices } from '../../../src/server/services.ts';

const REQUEST = { host: 'localhost', userAgent: 'setup-test' };
type Answer = Awaited<ReturnType<ReturnType<typeof createPageServices>['createFirstAdmin']>>;
const errorOf = (a: Answer) => ('error' in a ? a.error : null);

describe.each(DB_KINDS)('first-run setup on %s', (kind) => {
  let t: TestApp | undefined;
  afterEach(async () => {
    await t?.close();
    t = undefined;
  });

  it('creates exactly one super admin when several first-run forms are sent at once', async () => {
    t = await startTestApp({ db: kind });
    const pages = createPageServices(t.services);
    expect(await pages.needsSetup()).toBe(true);
    const answers = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        pages.createFirstAdmin({ email: `first${i}@example.com`, password: 'First-password-1', fullName: `Admin ${i}` }, REQUEST),
      ),
    ).then((all) => all.map(errorOf));
    expect(answers.filter((a) => a === null)).toHaveLength(1);
    expect(answers.filter((a) => a !== null)).toEqual(Array(5).fill('Setup is already complete: a user exists.'));
    const users = await t.services.db.k.selectFrom('users').select(['email', 'user_type']).execute();
    expect(users).toHaveLength(1);
    expect(users[0].user_type).toBe(1);
    expect(await pages.needsSetup()).toBe(false);
    // and the winner can sign in
    const r = await t.client().post('/api/v1/auth/login', { email: users[0].email, password: 'First-password-1' });
    expect(r.status).toBe(200);
  });

  it('refuses a later form once a user exists, and bad input with the form texts', async () => {
    t = await startTestApp({ db: kind });
    const pages = createPageServices(t.services);
    expect(errorOf(await pages.createFirstAdmin({ email: 'nope', password: 'First-password-1', fullName: '' }, REQUEST))).toBe(
      'Please enter a valid email address.',
    );
    expect(errorOf(await pages.createFirstAdmin({ email: 'a@example.com', password: 'short', fullName: '' }, REQUEST))).toBe(
      'The password must have at least 8 characters.',
    );
    expect(
      errorOf(await pages.createFirstAdmin({ email: 'a@example.com', password: 'First-password-1', fullName: '' }, REQUEST)),
    ).toBeNull();
    expect(errorOf(await pages.createFirstAdmin({ email: 'b@example.com', password: 'First-password-1', fullName: '' }, REQUEST))).toBe(
      'Setup is already complete: a user exists.',
    );
    expect(await t.services.db.k.selectFrom('users').select('email').execute()).toEqual([{ email: 'a@example.com' }]);
  });

  it('signs the new super admin in on the setup host: its cookies are a session the API accepts', async () => {
    t = await startTestApp({ db: kind });
    const pages = createPageServices(t.services);
    const done = await pages.createFirstAdmin({ email: 'owner@example.com', password: 'First-password-1', fullName: 'Owner' }, REQUEST);
    if (!('cookies' in done)) throw new Error(`setup refused: ${done.error}`);
    expect(done.cookies.map((c) => [c.name, c.options.path, c.options.httpOnly, c.options.secure])).toEqual([
      ['sw_at', '/', true, true],
      ['sw_rt', '/api/v1/auth', true, true],
    ]);
    const browser = t.client();
    expect((await browser.get('/api/v1/auth/me')).status).toBe(401);
    for (const c of done.cookies) browser.setCookie('localhost', c.name, c.value);
    const me = await browser.get('/api/v1/auth/me');
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({ email: 'owner@example.com', user_type: '1', full_name: 'Owner' });
    // the refresh cookie renews it, as after a sign-in
    expect((await browser.post('/api/v1/auth/refresh-token')).status).toBe(200);
  });
});
