// Common and breached passwords are refused wherever a password is chosen: signup, first-run
// setup, reset by link, change, an admin's create and reset, the operator's CLI (ASVS 2.1.7).
// Password rules do not depend on the database, so this runs on SQLite only.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../support/test-app.ts';
import { seedCompany, seedUser, signIn, TEST_PASSWORD } from '../../support/fixtures.ts';
import { tempDir } from '../../support/test-db.ts';
import { createPageServices } from '../../../src/server/services.ts';
import { verifyPassword } from '../../../src/server/domain/auth/password.ts';

const TOO_COMMON = 'This password is too common. Choose another.';
const COMMON = ['password', '12345678', 'Password1', 'iloveyou', 'qwertyuiop'];

describe('common passwords', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ db: 'sqlite' });
  });
  afterAll(async () => t?.close());

  it.each(COMMON)('refuses %j at signup, in a reset link and in a password change', async (pw) => {
    const signup = await t.client().post('/api/v1/auth/signup', { name: 'Common Co', email: `common-${pw}@example.com`, password: pw });
    expect(signup.status).toBe(400);
    expect(signup.body.detail).toBe(TOO_COMMON);
    expect(signup.body.errors).toEqual({ password: TOO_COMMON });

    const reset = await t.client().post('/api/v1/auth/reset-password', { token: 'x'.repeat(43), new_password: pw });
    expect(reset.status).toBe(400);
    expect(reset.body.errors).toEqual({ new_password: TOO_COMMON });

    const u = await seedUser(t.services, { userType: 1 });
    const c = t.client();
    await signIn(c, u);
    const change = await c.post('/api/v1/auth/change-password', { current_password: TEST_PASSWORD, new_password: pw });
    expect(change.status).toBe(400);
    expect(change.body.errors).toEqual({ new_password: TOO_COMMON });
    const row = await t.services.db.k.selectFrom('users').select('password_hash').where('id', '=', u.id).executeTakeFirstOrThrow();
    expect(await verifyPassword(row.password_hash, TEST_PASSWORD)).toBe(true);
  });

  it('refuses them when a super admin creates a user or resets a password', async () => {
    const root = t.client();
    await signIn(root, await seedUser(t.services, { userType: 1 }));
    const co = await seedCompany(t.services);
    const create = await root.post('/api/v1/admin/users', {
      name: 'Weak',
      email: 'weak@example.com',
      password: '12345678',
      user_type: '2',
      company_id: co.id,
    });
    expect(create.status).toBe(400);
    expect(create.body.errors).toMatchObject({ password: TOO_COMMON });
    const victim = await seedUser(t.services, { userType: 3, companyId: co.id });
    const reset = await root.post(`/api/v1/admin/users/${victim.id}/reset-password`, { new_password: 'password1' });
    expect(reset.status).toBe(400);
    expect(reset.body.errors).toEqual({ new_password: TOO_COMMON });
    // a strong one still goes through
    expect((await root.post(`/api/v1/admin/users/${victim.id}/reset-password`, { new_password: 'Harbour-lantern-57' })).status).toBe(200);
  });

  it('refuses them in the first-run setup form', async () => {
    const fresh = await startTestApp({ db: 'sqlite' });
    try {
      const pages = createPageServices(fresh.services);
      expect(
        await pages.createFirstAdmin(
          { email: 'first@example.com', password: 'password', fullName: '' },
          { host: 'localhost', userAgent: 'test' },
        ),
      ).toEqual({ error: TOO_COMMON });
      expect(await pages.needsSetup()).toBe(true);
    } finally {
      await fresh.close();
    }
  });

  it('refuses them in the operator CLI', () => {
    const r = spawnSync(process.execPath, ['src/server/cli/admin.ts', 'create-superadmin', '--email', 'ops@example.com'], {
      cwd: path.resolve(import.meta.dirname, '../../..'),
      input: '12345678\n',
      encoding: 'utf8',
      env: { ...process.env, DATA_DIR: tempDir(), LOG_LEVEL: 'silent', NODE_ENV: 'test', DATABASE_URL: '' },
    });
    expect(r.status).toBe(1);
    expect(r.stderr).toBe(`${TOO_COMMON}\n`);
  });
});
