// The server's SQLite database checkpoints its WAL from a worker thread: committed writes reach the
// database file without the writer (the event loop) copying and fsyncing them inside a COMMIT.
import { existsSync, mkdtempSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { sql } from 'kysely';
import { DatabaseSync } from 'node:sqlite';
import { describe, expect, it } from 'vitest';
import { openDb } from './connect.ts';

const MB = 1_000_000;

async function writeMegabytes(file: string, backgroundCheckpoints: boolean, mb: number) {
  const db = openDb({ kind: 'sqlite', file, backgroundCheckpoints });
  await sql`create table t (x text)`.execute(db.k);
  for (let i = 0; i < mb * 10; i++) await sql`insert into t values (${'x'.repeat(100_000)})`.execute(db.k);
  return db;
}

async function fileSizeAfter(file: string, ms: number): Promise<number> {
  const until = Date.now() + ms;
  while (Date.now() < until && statSync(file).size < 2.9 * MB) await sleep(50);
  return statSync(file).size;
}

describe('SQLite WAL checkpoints in the background', () => {
  it('moves committed writes into the database file while the writer only appends to the WAL', async () => {
    const file = path.join(mkdtempSync(path.join(os.tmpdir(), 'sw-ckpt-')), 'db.sqlite');
    // 3 MB: under SQLite's own automatic checkpoint (1,000 pages), so only the thread moves them
    const db = await writeMegabytes(file, true, 3);
    expect(await fileSizeAfter(file, 20_000)).toBeGreaterThan(2.9 * MB); // as soon as it has grown: the bound only ends a failing wait
    // another connection sees every row; closing folds the WAL in and removes it
    const reader = new DatabaseSync(file, { readOnly: true });
    expect(reader.prepare('select count(*) as n from t').get()).toEqual({ n: 30 });
    reader.close();
    await db.close();
    expect(existsSync(`${file}-wal`)).toBe(false);
  });

  it('leaves the WAL to the writer when not asked (tests, CLI tools)', async () => {
    const file = path.join(mkdtempSync(path.join(os.tmpdir(), 'sw-ckpt-')), 'db.sqlite');
    const db = await writeMegabytes(file, false, 3);
    expect(await fileSizeAfter(file, 1000)).toBeLessThan(MB);
    await db.close();
  });
});
