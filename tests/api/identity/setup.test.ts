// First run on both databases: /setup's form (through the page services it calls) creates one
// super admin, once, even when several forms arrive at the same moment.
import { afterEach, describe, expect, it } from 'vitest';
import { DB_KINDS } from '../../support/test-db.ts';
import { startTestApp, type TestApp } from '../../support/test-app.ts';
import { createPageServices } from '../../../src/server/services.ts';

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
        pages.createFirstAdmin({ email: `first${i}@example.com`, password: 'First-password-1', fullName: `Admin ${i}` }),
      ),
    );
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
    expect(await pages.createFirstAdmin({ email: 'nope', password: 'First-password-1', fullName: '' })).toBe(
      'Please enter a valid email address.',
    );
    expect(await pages.createFirstAdmin({ email: 'a@example.com', password: 'short', fullName: '' })).toBe(
      'The password must have at least 8 characters.',
    );
    expect(await pages.createFirstAdmin({ email: 'a@example.com', password: 'First-password-1', fullName: '' })).toBeNull();
    expect(await pages.createFirstAdmin({ email: 'b@example.com', password: 'First-password-1', fullName: '' })).toBe(
      'Setup is already complete: a user exists.',
    );
    expect(await t.services.db.k.selectFrom('users').select('email').execute()).toEqual([{ email: 'a@example.com' }]);
  });
});
