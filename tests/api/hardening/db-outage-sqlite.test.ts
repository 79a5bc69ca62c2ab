// SQLite failing under a running server: the disk fills up (a real 8 MiB tmpfs, filled with a
// file) and the database turns read-only (PRAGMA query_only on the server's one connection: as
// root, file modes do not stop writes, and a busy filesystem cannot be remounted read-only).
// Writes must answer a 503 problem saying the data cannot be stored, while the process stays
// up, reads and the status page's documents keep working, and writes work again afterwards.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { openSync, closeSync, writeSync, rmSync } from 'node:fs';
import path from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { sql } from 'kysely';
import { type ApiClient, startTestApp, type TestApp, fetchDocuments, type FetchedDocuments } from '../../support/test-app.ts';
import { tempDir } from '../../support/test-db.ts';
import { startEngine } from '../../../src/server/engine/index.ts';
import { seedOutageTenant } from './db-outage-tenant.ts';
import { RECHECK_MS } from '../../../src/server/domain/status-page/cache.ts';
import { waitFor } from '../../support/wait-for.ts';

const isRoot = process.getuid?.() === 0;

/** Writes zeros into `file` until the filesystem refuses (ENOSPC). */
function fillDisk(file: string): void {
  const fd = openSync(file, 'w');
  const chunk = Buffer.alloc(64 * 1024);
  try {
    for (;;) writeSync(fd, chunk);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOSPC') throw e;
  } finally {
    closeSync(fd);
  }
}

describe.skipIf(!isRoot)('SQLite that cannot store data under a running server (mounts a tmpfs: root only)', () => {
  let mount: string;
  let t: TestApp;
  let admin: ApiClient;
  let acme: { id: string; subdomain: string };
  const engineLog: string[] = [];
  const unhandled: unknown[] = [];
  const onUnhandled = (e: unknown) => void unhandled.push(e);
  const tenant = () => ({ host: `${acme.subdomain}.${t.config.productDomain}` });
  let n = 0;
  const createMonitor = () =>
    admin.post(
      '/api/v1/monitors',
      { name: `Monitor ${n++}`, type: 'tcp', host: '127.0.0.1', port: 9, interval_seconds: 60, is_public: false },
      tenant(),
    );
  const publicDocuments = () => [
    `/api/v1/public/public-status/${acme.subdomain}`,
    '/api/v2/summary.json',
    '/history.atom',
    '/badges/status.svg',
  ];
  const fetchPublic = () => fetchDocuments(t.client(), publicDocuments(), tenant());
  // The server's clock runs ahead of real time by `skew`: moving it on replaces waiting.
  let skew = 0;
  // When the test that fills the disk made every monitor due (its round is stored once space is back).
  let roundDueAt = 0;
  const failedTicks = () => engineLog.filter((l) => l.startsWith('engine: tick failed')).length;

  /** While the database cannot store: writes 503, reads and the public documents as before. */
  async function expectReadOnlyService(before: FetchedDocuments) {
    const write = await createMonitor();
    expect(write.status).toBe(503);
    expect(write.headers.get('content-type')).toContain('application/problem+json');
    expect(write.body).toMatchObject({
      status: 503,
      code: 'unavailable',
      detail: 'The database cannot store data right now. Please try again later.',
    });
    expect(Number(write.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await admin.get('/api/v1/monitors', tenant())).status).toBe(200);
    expect((await t.client().get('/livez')).status).toBe(200);
    skew += RECHECK_MS + 100; // past the snapshot's recheck interval
    expect(await fetchPublic()).toEqual(before);
  }

  beforeAll(async () => {
    mount = tempDir('sw-tmpfs-');
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=8m', 'tmpfs', mount]);
    t = await startTestApp({
      db: 'sqlite',
      location: { file: path.join(mount, 'statuswatch.sqlite') },
      env: { ALLOW_PRIVATE_TARGETS: 'true' },
      now: () => Date.now() + skew,
    });
    startEngine(t.services, { tickMs: 100, log: (m) => void engineLog.push(m) });
    ({ acme, admin } = await seedOutageTenant(t));
    process.on('unhandledRejection', onUnhandled);
    process.on('uncaughtException', onUnhandled);
  });

  afterAll(async () => {
    process.off('unhandledRejection', onUnhandled);
    process.off('uncaughtException', onUnhandled);
    await t?.close();
    if (mount) {
      execFileSync('umount', [mount]);
      rmSync(mount, { recursive: true, force: true });
    }
  });

  it('answers 503 to writes while the disk is full and stores again once space is freed', async () => {
    expect((await createMonitor()).status).toBe(201);
    const before = await fetchPublic();
    // An empty write-ahead log: the next write must grow a file on the full disk.
    await sql`PRAGMA wal_checkpoint(TRUNCATE)`.execute(t.services.db.k);
    const filler = path.join(mount, 'filler');
    fillDisk(filler);
    try {
      await expectReadOnlyService(before);
      // The monitors fall due: the engine's next tick must store and fails (the process survives it).
      const ticksFailedBefore = failedTicks();
      skew += 61_000;
      roundDueAt = Date.now() + skew;
      await waitFor(() => failedTicks() > ticksFailedBefore, { what: 'an engine tick failing on the full disk' });
    } finally {
      rmSync(filler);
    }
    expect((await createMonitor()).status).toBe(201);
    expect(unhandled).toEqual([]);
  });

  it('answers 503 to writes while the database is read-only and stores again afterwards', async () => {
    // The clock moved a minute on in the test before: the engine stores that round's checks (and
    // resolves what they resolve) once space is back, so the page is taken once the round is in
    // and two fresh snapshots in a row agree.
    const freshPublic = async () => {
      skew += RECHECK_MS + 100;
      return fetchPublic();
    };
    const roundIn = (docs: FetchedDocuments) => {
      const page = JSON.parse(docs[publicDocuments()[0]].text) as { monitors: { last_checked_at: string | null }[] };
      return page.monitors.every((m) => m.last_checked_at !== null && Date.parse(m.last_checked_at) >= roundDueAt);
    };
    let before = await freshPublic();
    await waitFor(
      async () => {
        const again = await freshPublic();
        const settled = roundIn(again) && isDeepStrictEqual(again, before);
        before = again;
        return settled;
      },
      { what: 'the public documents to settle after the engine round' },
    );
    await sql`PRAGMA query_only = ON`.execute(t.services.db.k);
    try {
      await expectReadOnlyService(before);
    } finally {
      await sql`PRAGMA query_only = OFF`.execute(t.services.db.k);
    }
    expect((await createMonitor()).status).toBe(201);
    expect(unhandled).toEqual([]);
    expect(t.errorLog.join('\n')).toMatch(/SQLITE_FULL|SQLITE_READONLY/);
  });
});
