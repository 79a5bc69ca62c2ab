// Backup and restore of the SQLite database file (`npm run admin -- backup|restore FILE`).
// backup: SQLite's online backup API, all pages in one step, so the copy is one consistent
// snapshot (a read transaction: in WAL mode the server keeps writing meanwhile), written beside
// the target and renamed into place only once it passes the integrity check.
// restore: refuses a file that fails PRAGMA integrity_check or is not a StatusWatch database,
// and refuses while any process (the server, a worker) has the live database open; the live
// file is kept as `<file>.<time>.bak`. PostgreSQL has pg_dump/pg_restore (docs/operations/backups.md).
import { backup, DatabaseSync } from 'node:sqlite';
import { existsSync, renameSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';

/** sqlite3_backup_step's page count: everything at once (node:sqlite refuses -1). */
const ALL_PAGES = 2 ** 31 - 1;

export class BackupError extends Error {}

/** 'ok', or the first problems SQLite reports (a file that is not a database at all included). */
export function integrityOf(file: string): string {
  let db: DatabaseSync | undefined;
  try {
    // read-write only so that a WAL-mode file's -wal/-shm go away at close; nothing is written
    db = new DatabaseSync(file);
    const rows = db.prepare('PRAGMA integrity_check(10)').all() as Array<{ integrity_check: string }>;
    const result = rows.map((r) => r.integrity_check).join('; ');
    if (result !== 'ok') return result;
    const migrated = db.prepare("select count(*) as n from sqlite_master where type = 'table' and name = 'kysely_migration'").get() as {
      n: number;
    };
    return migrated.n === 1 ? 'ok' : 'not a StatusWatch database (no migrations table)';
  } catch (e) {
    return (e as Error).message;
  } finally {
    db?.close();
  }
}

function temporaryBeside(file: string): string {
  return path.join(path.dirname(file), `.${path.basename(file)}.${process.pid}.partial`);
}

/** The copy as one file (rollback journal instead of WAL), to be moved and copied alone; the server turns WAL on again. */
function selfContained(file: string): void {
  const db = new DatabaseSync(file);
  try {
    db.exec('PRAGMA journal_mode = DELETE');
  } finally {
    db.close();
  }
}

/** Copies the live database at `source` to `target` (which must not exist); answers its size in bytes. */
export async function backupSqlite(source: string, target: string): Promise<number> {
  if (!existsSync(source)) throw new BackupError(`No database at ${source}.`);
  if (existsSync(target)) throw new BackupError(`${target} exists already: choose a new file name.`);
  const partial = temporaryBeside(target);
  const db = new DatabaseSync(source);
  try {
    db.exec('PRAGMA busy_timeout = 5000');
    await backup(db, partial, { rate: ALL_PAGES });
    selfContained(partial);
  } catch (e) {
    rmSync(partial, { force: true });
    throw e;
  } finally {
    db.close();
  }
  const integrity = integrityOf(partial);
  if (integrity !== 'ok') {
    rmSync(partial, { force: true });
    throw new BackupError(`The copy failed its integrity check (${integrity}); nothing was written.`);
  }
  renameSync(partial, target);
  return statSync(target).size;
}

/**
 * Holds the live database exclusively for a moment: fails while another process has it open
 * (in WAL mode every open connection holds a shared lock), then closes it cleanly, which
 * checkpoints and removes its write-ahead log so the file alone is the whole database.
 */
function ensureUnused(live: string): void {
  const db = new DatabaseSync(live);
  try {
    db.exec('PRAGMA busy_timeout = 0; PRAGMA locking_mode = EXCLUSIVE; BEGIN EXCLUSIVE; COMMIT;');
  } catch {
    throw new BackupError(
      `The database ${live} is in use by another process (the server or a worker): stop every process on this DATA_DIR first.`,
    );
  } finally {
    db.close();
  }
}

/** Replaces the live database with the backup `source`; answers where the previous one was kept (null: there was none). */
export async function restoreSqlite(source: string, live: string, now: number): Promise<string | null> {
  if (!existsSync(source)) throw new BackupError(`No file at ${source}.`);
  const integrity = integrityOf(source);
  if (integrity !== 'ok') throw new BackupError(`${source} failed its integrity check: ${integrity}. Nothing was changed.`);
  let kept: string | null = null;
  if (existsSync(live)) {
    ensureUnused(live);
    kept = `${live}.${new Date(now).toISOString().replace(/[:.]/g, '-')}.bak`;
  }
  const partial = temporaryBeside(live);
  const db = new DatabaseSync(source);
  try {
    await backup(db, partial, { rate: ALL_PAGES });
  } catch (e) {
    rmSync(partial, { force: true });
    throw e;
  } finally {
    db.close();
  }
  if (kept) {
    renameSync(live, kept);
    // a clean close removed them; a leftover would be replayed into the restored file
    for (const suffix of ['-wal', '-shm']) rmSync(`${live}${suffix}`, { force: true });
  }
  renameSync(partial, live);
  return kept;
}
