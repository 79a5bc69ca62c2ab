// The operator's admin CLI against a real SQLite file: the password comes from stdin.
import { describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { tempDir } from '../../support/test-db.ts';
import { openDb } from '../../../src/server/db/connect.ts';
import { usersRepo } from '../../../src/server/db/repositories/users-repo.ts';
import { verifyPassword } from '../../../src/server/domain/auth/password.ts';

const root = path.resolve(import.meta.dirname, '../../..');

function admin(dataDir: string, args: string[], stdin: string) {
  return spawnSync(process.execPath, ['src/server/cli/admin.ts', ...args], {
    cwd: root,
    input: stdin,
    encoding: 'utf8',
    env: { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'silent', NODE_ENV: 'test', DATABASE_URL: '' },
  });
}

// Each case starts the CLI 4 to 7 times, a second of CPU each (Node, type stripping, the module
// graph): 18 s at load 17 on 2 cores. The time-out is a backstop for a loaded machine, not a target.
describe('npm run admin', { timeout: 120_000 }, () => {
  it('creates a super admin with the password from stdin, refuses bad input, lists users', async () => {
    const dir = tempDir();
    const ok = admin(dir, ['create-superadmin', '--email', 'Ops@Example.com', '--name', 'Ops Person'], 'Cli-password-1\n');
    expect(ok.stderr).toBe('');
    expect(ok.stdout).toBe('Super admin ops@example.com created.\n');
    expect(ok.status).toBe(0);
    const weak = admin(dir, ['create-superadmin', '--email', 'b@example.com'], 'short\n');
    expect(weak.status).toBe(1);
    expect(weak.stderr).toBe('The password must have at least 8 characters.\n');
    const dup = admin(dir, ['create-superadmin', '--email', 'ops@example.com'], 'Cli-password-1\n');
    expect(dup.status).toBe(1);
    expect(dup.stderr).toBe('A user with this email already exists.\n');
    expect(admin(dir, ['create-superadmin'], '').status).toBe(2);
    expect(admin(dir, ['frobnicate'], '').status).toBe(2);
    const list = admin(dir, ['list-users'], '');
    expect(list.stdout).toBe('ops@example.com\tSuper Admin\t-\tactive\n');

    const db = openDb({ kind: 'sqlite', file: path.join(dir, 'statuswatch.sqlite') });
    try {
      const u = await usersRepo(db).findByEmail('ops@example.com');
      expect(u).toMatchObject({ user_type: 1, company_id: null, full_name: 'Ops Person', is_active: true });
      expect(u!.password_hash).toMatch(/^\$argon2id\$/);
      expect(await verifyPassword(u!.password_hash, 'Cli-password-1')).toBe(true);
    } finally {
      await db.close();
    }
  });
  it('resets a lost password from stdin: the old one and every session stop working', async () => {
    const dir = tempDir();
    expect(admin(dir, ['create-superadmin', '--email', 'ops@example.com'], 'Old-password-1\n').status).toBe(0);
    const file = path.join(dir, 'statuswatch.sqlite');
    const db = openDb({ kind: 'sqlite', file });
    try {
      // a live session and an outstanding reset link of that user
      const u = (await usersRepo(db).findByEmail('ops@example.com'))!;
      const now = Date.now();
      await db.k
        .insertInto('refresh_tokens')
        .values({
          id: 'rt1',
          family_id: 'f1',
          user_id: u.id,
          token_hash: 'h'.repeat(64),
          host: 'localhost',
          remember: false,
          user_agent: null,
          created_at: now,
          expires_at: now + 3_600_000,
          used_at: null,
          revoked_at: null,
        })
        .execute();
      await db.k
        .insertInto('auth_codes')
        .values({
          id: 'c1',
          kind: 'reset',
          code_hash: 'c'.repeat(64),
          user_id: u.id,
          host: 'localhost',
          remember: false,
          session_version: u.session_version,
          created_at: now,
          expires_at: now + 600_000,
          used_at: null,
        })
        .execute();

      const weak = admin(dir, ['reset-password', '--email', 'ops@example.com'], 'short\n');
      expect(weak.status).toBe(1);
      expect(weak.stderr).toBe('Password must be at least 8 characters.\n');
      const nobody = admin(dir, ['reset-password', '--email', 'ghost@example.com'], 'New-password-1\n');
      expect(nobody.status).toBe(1);
      expect(nobody.stderr).toBe('No user with the email ghost@example.com.\n');
      expect(admin(dir, ['reset-password'], 'New-password-1\n').status).toBe(2);

      const ok = admin(dir, ['reset-password', '--email', 'OPS@example.com'], 'New-password-1\n');
      expect(ok.stderr).toBe('');
      expect(ok.stdout).toBe('Password of ops@example.com reset; their sessions were ended.\n');
      expect(ok.status).toBe(0);
      const after = (await usersRepo(db).findByEmail('ops@example.com'))!;
      expect(await verifyPassword(after.password_hash, 'New-password-1')).toBe(true);
      expect(await verifyPassword(after.password_hash, 'Old-password-1')).toBe(false);
      expect(after.session_version).toBe(u.session_version + 1);
      expect(
        (await db.k.selectFrom('refresh_tokens').select('revoked_at').where('id', '=', 'rt1').executeTakeFirstOrThrow()).revoked_at,
      ).not.toBeNull();
      expect(
        (await db.k.selectFrom('auth_codes').select('used_at').where('id', '=', 'c1').executeTakeFirstOrThrow()).used_at,
      ).not.toBeNull();
      const audit = await db.k.selectFrom('audit_events').select(['event', 'user_id', 'details']).where('user_id', '=', u.id).execute();
      expect(audit).toEqual([
        { event: 'user_update', user_id: u.id, details: JSON.stringify({ user_id: u.id, change: 'password_reset_by_operator_cli' }) },
      ]);
    } finally {
      await db.close();
    }
  });
});
