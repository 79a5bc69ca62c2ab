// `npm run admin -- backup FILE` and `restore FILE` on a real SQLite file: a backup taken while
// the server keeps acknowledging writes restores to a database that passes the integrity check
// and holds every write acknowledged before the backup began; restore refuses a damaged file and
// a database the server still has open, and keeps the replaced database as .bak.
import { spawn, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, openSync, readdirSync, writeSync, closeSync, statSync } from 'node:fs';
import { DatabaseSync } from 'node:sqlite';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { tempDir } from '../../support/test-db.ts';
import { ApiClient, startTestApp, type TestApp } from '../../support/test-app.ts';
import { seedCompany, seedUser, signIn } from '../../support/fixtures.ts';
import { randomUUID as newId } from 'node:crypto';
import { waitFor } from '../../support/wait-for.ts';

const root = path.resolve(import.meta.dirname, '../../..');

function cliEnv(dataDir: string, extra: Record<string, string> = {}) {
  return { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'silent', NODE_ENV: 'test', DATABASE_URL: '', ...extra };
}

function admin(dataDir: string, args: string[], extra: Record<string, string> = {}) {
  return spawnSync(process.execPath, ['src/server/cli/admin.ts', ...args], { cwd: root, encoding: 'utf8', env: cliEnv(dataDir, extra) });
}

/** The CLI as a separate process that runs while the test keeps writing. */
function adminAsync(dataDir: string, args: string[]): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['src/server/cli/admin.ts', ...args], { cwd: root, env: cliEnv(dataDir) });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });
}

function titlesIn(file: string): Set<string> {
  const db = new DatabaseSync(file);
  try {
    return new Set((db.prepare('select title from incidents').all() as Array<{ title: string }>).map((r) => r.title));
  } finally {
    db.close();
  }
}

function integrity(file: string): string {
  const db = new DatabaseSync(file);
  try {
    return (db.prepare('PRAGMA integrity_check').all() as Array<{ integrity_check: string }>).map((r) => r.integrity_check).join('; ');
  } finally {
    db.close();
  }
}

describe('SQLite backup and restore', () => {
  const dataDir = tempDir();
  const live = path.join(dataDir, 'statuswatch.sqlite');
  const backupFile = path.join(tempDir(), 'nightly.sqlite');
  let t: TestApp | undefined;
  let writtenBeforeBackup: string[] = [];
  let writtenAll: string[] = [];

  const start = () => startTestApp({ db: 'sqlite', location: { file: live }, env: { DATA_DIR: dataDir } });
  afterAll(async () => {
    await t?.close();
  });

  it('copies the database while the server acknowledges writes; the copy is intact and holds every write acknowledged before it began', async () => {
    t = await start();
    const company = await seedCompany(t.services, { subdomain: 'acme' });
    const host = `acme.${t.config.productDomain}`;
    const adminClient = new ApiClient(t.baseUrl, host);
    await signIn(adminClient, await seedUser(t.services, { userType: 2, companyId: company.id }));
    // Some bulk first, so the copy has pages to read while the writes go on.
    const k = t.services.db.k;
    for (let batch = 0; batch < 20; batch++) {
      const rows = Array.from({ length: 500 }, (_, i) => ({
        id: newId(),
        event: 'feature_access',
        details: JSON.stringify({ filler: 'x'.repeat(300), n: batch * 500 + i }),
        timestamp: Date.now(),
        source: 'client',
      }));
      await k.insertInto('audit_events').values(rows).execute();
    }

    const acknowledged: string[] = [];
    let stop = false;
    const writer = (async () => {
      for (let n = 0; !stop; n++) {
        const title = `Write ${n}`;
        const r = await adminClient.post('/api/v1/incidents', { title, severity: 'low', message: 'load' });
        expect(r.status, r.text).toBe(201);
        acknowledged.push(title);
      }
    })();
    await waitFor(() => acknowledged.length >= 10, { what: 'ten writes acknowledged' });
    writtenBeforeBackup = [...acknowledged];
    const backingUp = adminAsync(dataDir, ['backup', backupFile]);
    const out = await backingUp;
    const duringBackup = acknowledged.length - writtenBeforeBackup.length;
    stop = true;
    await writer;
    writtenAll = [...acknowledged];
    expect(out.stderr).toBe('');
    expect(out.stdout).toMatch(/^Backed up .*statuswatch\.sqlite to .*nightly\.sqlite \(\d+ bytes, integrity check ok\)\.\n$/);
    expect(out.status).toBe(0);
    expect(duringBackup).toBeGreaterThan(0); // the server kept writing while the copy was made

    expect(integrity(backupFile)).toBe('ok');
    const copied = titlesIn(backupFile);
    for (const title of writtenBeforeBackup) expect(copied.has(title), title).toBe(true);
    // no half-written leftovers beside the copy
    expect(readdirSync(path.dirname(backupFile))).toEqual(['nightly.sqlite']);
    // an existing file is never overwritten
    const again = admin(dataDir, ['backup', backupFile]);
    expect(again.status).toBe(1);
    expect(again.stderr).toContain('exists already');
  });

  it('refuses to restore while the server has the database open, and changes nothing', async () => {
    const r = admin(dataDir, ['restore', backupFile]);
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('in use by another process');
    expect(readdirSync(dataDir).filter((f) => f.endsWith('.bak'))).toEqual([]);
    const rows = await t!.services.db.k.selectFrom('incidents').select('title').execute();
    expect(rows.length).toBe(writtenAll.length);
  });

  it('refuses a damaged backup after its integrity check', async () => {
    await t!.close();
    t = undefined;
    const damaged = path.join(tempDir(), 'damaged.sqlite');
    copyFileSync(backupFile, damaged);
    const fd = openSync(damaged, 'r+');
    const size = statSync(damaged).size;
    writeSync(fd, Buffer.alloc(4096 * 3, 0xa5), 0, 4096 * 3, Math.floor(size / 2 / 4096) * 4096);
    closeSync(fd);
    const r = admin(dataDir, ['restore', damaged]);
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('failed its integrity check');
    expect(readdirSync(dataDir).filter((f) => f.endsWith('.bak'))).toEqual([]);
    const notADb = path.join(tempDir(), 'notes.sqlite');
    copyFileSync(path.join(root, 'package.json'), notADb);
    expect(admin(dataDir, ['restore', notADb]).status).toBe(1);
  });

  it('restores the backup with the server stopped, keeps the replaced database as .bak, and the server starts on it', async () => {
    const r = admin(dataDir, ['restore', backupFile]);
    expect(r.stderr).toBe('');
    expect(r.stdout).toMatch(
      /^Restored .*nightly\.sqlite to .*statuswatch\.sqlite\. The previous database is kept as .*\.bak\. Migrations run when the server starts\.\n$/,
    );
    expect(r.status).toBe(0);
    const baks = readdirSync(dataDir).filter((f) => f.endsWith('.bak'));
    expect(baks).toHaveLength(1);
    // the replaced database is whole: every write the server acknowledged
    const kept = titlesIn(path.join(dataDir, baks[0]));
    for (const title of writtenAll) expect(kept.has(title), title).toBe(true);
    expect(integrity(live)).toBe('ok');
    const restoredTitles = titlesIn(backupFile);

    t = await start();
    const rows = await t.services.db.k.selectFrom('incidents').select('title').execute();
    expect(new Set(rows.map((x) => x.title))).toEqual(restoredTitles);
    for (const title of writtenBeforeBackup) expect(restoredTitles.has(title)).toBe(true);
    expect(existsSync(backupFile)).toBe(true);
  });

  it('points a PostgreSQL operator to pg_dump and pg_restore', () => {
    const r = admin(tempDir(), ['backup', path.join(tempDir(), 'x.sqlite')], { DATABASE_URL: 'postgres://u@127.0.0.1:1/db' });
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('pg_dump');
    expect(admin(tempDir(), ['backup']).status).toBe(2);
  });
});
