// The real process, as a user starts it: configuration errors stop it with one clear line;
// it serves on SQLite and on PostgreSQL; a restart keeps the data; SIGTERM stops it cleanly.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { startServer } from '../e2e/support/server.ts';
import { createDatabase } from '../support/pg-cluster.ts';
import { tempDir } from '../support/test-db.ts';

const root = path.resolve(import.meta.dirname, '../..');
if (!existsSync(path.join(root, 'dist/server/entry.mjs'))) {
  throw new Error('boot tests need the built pages: run `npm run build` (npm test does it)');
}

function runMain(env: Record<string, string>) {
  return spawnSync(process.execPath, ['src/server/main.ts'], {
    cwd: root,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, DATA_DIR: tempDir(), ...env },
    encoding: 'utf8',
    timeout: 20_000,
  });
}

describe('starting the process', () => {
  it.each([
    [{ PORT: 'abc' }, 'Configuration error: Invalid PORT="abc": expected a whole number from 0 to 65535'],
    [
      { DATABASE_URL: 'mysql://x' },
      'Configuration error: Invalid DATABASE_URL="mysql://x": expected unset (SQLite file in DATA_DIR) or a postgres:// URL',
    ],
    [
      { NODE_ENV: 'production' },
      'Configuration error: Invalid SESSION_SECRET="": expected a random secret of 32+ characters (required in production)',
    ],
  ])('refuses %j with one clear line', (env, line) => {
    const r = runMain(env);
    expect(r.status).toBe(1);
    expect(r.stderr.trim()).toBe(line);
    expect(r.stdout).toBe('');
  });

  it('serves on a new SQLite file in DATA_DIR, keeps data across a restart, and stops cleanly', async () => {
    const dataDir = tempDir();
    const env = { DATA_DIR: dataDir, ADMIN_EMAIL: 'first@example.com', ADMIN_PASSWORD: 'first-password' };
    const a = await startServer(env);
    for (const p of ['/livez', '/readyz', '/api/v1/health/']) {
      expect((await fetch(a.baseUrl + p)).status, p).toBe(200);
    }
    expect(await (await fetch(a.baseUrl + '/api/v1/health/')).json()).toEqual({ status: 'ok' });
    expect(readdirSync(dataDir)).toContain('statuswatch.sqlite');
    // the first admin exists, so /setup is gone
    expect((await fetch(a.baseUrl + '/setup')).status).toBe(404);
    expect(await a.stop('SIGTERM')).toBe(0);
    // a clean close checkpoints the write-ahead log into the database file
    expect(existsSync(path.join(dataDir, 'statuswatch.sqlite-wal'))).toBe(false);

    const b = await startServer({ DATA_DIR: dataDir });
    expect((await fetch(b.baseUrl + '/setup')).status).toBe(404);
    expect(await b.stop('SIGTERM')).toBe(0);
  });

  it('serves on PostgreSQL with DATABASE_URL', async () => {
    const url = await createDatabase(process.env.TEST_PG_URL!, `boot_${Date.now()}`);
    const s = await startServer({ DATABASE_URL: url });
    expect(await (await fetch(s.baseUrl + '/api/v1/health/')).json()).toEqual({ status: 'ok' });
    expect(readdirSync(s.dataDir)).not.toContain('statuswatch.sqlite');
    expect((await fetch(s.baseUrl + '/readyz')).status).toBe(200);
    // no user yet: the first-run page is offered
    expect((await fetch(s.baseUrl + '/setup')).status).toBe(200);
    expect(await s.stop('SIGINT')).toBe(0);
  });
});
