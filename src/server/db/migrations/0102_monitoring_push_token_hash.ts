// Push tokens are kept as their SHA-256 only (issue 11): a copy of the database no longer lets
// its holder report monitors up. The column is renamed (its unique index stays) and each stored
// token replaced by its hash, so URLs already handed out keep working.
import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';

const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('monitors').renameColumn('push_token', 'push_token_hash').execute();
  const rows = await db.selectFrom('monitors').select(['id', 'push_token_hash']).where('push_token_hash', 'is not', null).execute();
  for (const r of rows) {
    await db
      .updateTable('monitors')
      .set({ push_token_hash: sha256(String(r.push_token_hash)) })
      .where('id', '=', r.id)
      .execute();
  }
}

/** The tokens cannot come back: push monitors need a new token after a downgrade. */
export async function down(db: Kysely<any>): Promise<void> {
  await db.updateTable('monitors').set({ push_token_hash: null }).execute();
  await db.schema.alterTable('monitors').renameColumn('push_token_hash', 'push_token').execute();
}
