// Screenshots of browser checks (issue 29): the failing step's and each `screenshot` step's PNG
// of a run, kept for BROWSER_SCREENSHOT_DAYS and within the company's byte budget by plan (the
// browser-screenshots job prunes the oldest first). Test runs store none. A row per image: the
// bytes are small (a viewport PNG, capped at 1.5 MiB) and read one at a time by id.
import { SqliteAdapter, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  const sqlite = db.getExecutor().adapter instanceof SqliteAdapter;
  await db.schema
    .createTable('check_screenshots')
    .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
    .addColumn('company_id', 'varchar(36)', (c) => c.notNull().references('companies.id').onDelete('cascade'))
    .addColumn('monitor_id', 'varchar(36)', (c) => c.notNull().references('monitors.id').onDelete('cascade'))
    .addColumn('checked_at', 'bigint', (c) => c.notNull())
    /** The step's position in the journey, from 1 */
    .addColumn('step_index', 'integer', (c) => c.notNull())
    .addColumn('png', sqlite ? 'blob' : 'bytea', (c) => c.notNull())
    .addColumn('size', 'integer', (c) => c.notNull())
    .execute();
  // The prune walks a company's images oldest first (budget) and all images by age.
  await db.schema.createIndex('check_screenshots_company_time_idx').on('check_screenshots').columns(['company_id', 'checked_at']).execute();
  await db.schema.createIndex('check_screenshots_time_idx').on('check_screenshots').column('checked_at').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('check_screenshots').execute();
}
