// Probe locations (issue 27): where checks run from besides the built-in engine (the location
// `local`, which has no row: it exists on every install and cannot be deleted or given tokens).
// - probe_locations: a public location (company_id null, made by a super admin, offered to every
//   company) or a private one (company_id set, made by that company's admin, invisible to the
//   others). A slug is unique within its scope (the public ones; one company's private ones): the
//   expression index holds it against races; the service also keeps a private slug from shadowing
//   a public one.
// - probe_tokens: the credentials probes of a location present; only the SHA-256 of a token is
//   kept (it is shown once), with its first characters so people can tell tokens apart. A revoked
//   token stays as a record.
// - probes: one row per probe instance (location and the instance name it reports), with what
//   its hello and, later, its results report: version, first and last seen, checks per second, lag.
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('probe_locations')
    .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
    .addColumn('slug', 'varchar(32)', (c) => c.notNull())
    .addColumn('name', 'varchar(100)', (c) => c.notNull())
    .addColumn('company_id', 'varchar(36)', (c) => c.references('companies.id').onDelete('cascade'))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('created_by', 'varchar(36)')
    .execute();
  await db.schema
    .createIndex('probe_locations_scope_slug_idx')
    .on('probe_locations')
    .unique()
    .expression(sql`coalesce(company_id, ''), slug`)
    .execute();
  await db.schema.createIndex('probe_locations_company_idx').on('probe_locations').column('company_id').execute();
  await db.schema
    .createTable('probe_tokens')
    .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
    .addColumn('location_id', 'varchar(36)', (c) => c.notNull().references('probe_locations.id').onDelete('cascade'))
    .addColumn('name', 'varchar(100)', (c) => c.notNull())
    .addColumn('token_hash', 'varchar(64)', (c) => c.notNull().unique())
    .addColumn('token_prefix', 'varchar(16)', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('created_by', 'varchar(36)')
    .addColumn('last_used_at', 'bigint')
    .addColumn('revoked_at', 'bigint')
    .execute();
  await db.schema.createIndex('probe_tokens_location_idx').on('probe_tokens').column('location_id').execute();
  await db.schema
    .createTable('probes')
    .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
    .addColumn('location_id', 'varchar(36)', (c) => c.notNull().references('probe_locations.id').onDelete('cascade'))
    .addColumn('token_id', 'varchar(36)', (c) => c.notNull().references('probe_tokens.id').onDelete('cascade'))
    .addColumn('instance', 'varchar(100)', (c) => c.notNull())
    .addColumn('version', 'varchar(32)', (c) => c.notNull())
    .addColumn('first_seen_at', 'bigint', (c) => c.notNull())
    .addColumn('last_seen_at', 'bigint', (c) => c.notNull())
    .addColumn('checks_per_second', 'double precision')
    .addColumn('lag_ms', 'integer')
    .execute();
  await db.schema.createIndex('probes_location_instance_idx').on('probes').columns(['location_id', 'instance']).unique().execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const t of ['probes', 'probe_tokens', 'probe_locations']) await db.schema.dropTable(t).execute();
}
