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
    cwd: root, input: stdin, encoding: 'utf8', env: { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'silent', NODE_ENV: 'test', DATABASE_URL: '' },
  });
}

describe('npm run admin', () => {
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
      expect(u).toMatchObject({ user_type: 1, company_id: null, full_name: 'Ops Person', is_active: 1 });
      expect(u!.password_hash).toMatch(/^\$argon2id\$/);
      expect(await verifyPassword(u!.password_hash, 'Cli-password-1')).toBe(true);
    } finally {
      await db.close();
    }
  });
});
