// The e2e server's SQLite file, opened by a spec to put in what has no path through the UI here (a
// domain proven by DNS, a scan already run). The server may hold the write lock at that moment:
// the connection waits for it, as the server's own do, instead of failing at once with "database
// is locked" (a CI run on a loaded machine did).
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';

export function openServerDb(dataDir: string): DatabaseSync {
  return new DatabaseSync(path.join(dataDir, 'statuswatch.sqlite'), { timeout: 15_000 });
}

/** A domain the company has proven it controls (verified through DNS, which the tests have not). */
export function insertVerifiedDomain(dataDir: string, companyId: string, hostname: string): void {
  const db = openServerDb(dataDir);
  try {
    const now = Date.now();
    db.prepare(
      `INSERT INTO security_assets (id, company_id, hostname, kind, verification_token, verification_method, verified_at,
         last_verification_at, last_verification_error, created_at, updated_at) VALUES (?, ?, ?, 'domain', ?, 'dns_txt', ?, ?, NULL, ?, ?)`,
    ).run(randomUUID(), companyId, hostname, `tok-${randomUUID()}`, now, now, now, now);
  } finally {
    db.close();
  }
}
