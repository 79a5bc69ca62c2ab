// Threat intelligence (issue 16 item 5): the indicators of the operator's feeds, each feed's last
// import, the peer hosts a company's services call (kept at span ingest, so matching never
// parses span attributes), the lookalike domains checked for registration, and the breach
// lookup of a company's e-mail domain.
// Indicators are matched only by exact value through the primary key (value, feed): an address,
// a name and each of its parents, and an address's enclosing networks written as CIDRs the way
// the import writes them (a.b.c.0/24, for each prefix length the feeds hold), so no range scan
// is ever needed.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('threat_indicators')
    .addColumn('value', 'varchar(300)', (c) => c.notNull())
    .addColumn('feed', 'varchar(100)', (c) => c.notNull())
    .addColumn('kind', 'varchar(10)', (c) => c.notNull())
    .addColumn('threat', 'varchar(100)', (c) => c.notNull())
    .addColumn('tags', 'varchar(300)', (c) => c.notNull())
    // Last seen needs no column: an import replaces its feed, so every entry was in the feed's
    // latest import (threat_feeds.imported_at), and a refresh writes only what changed.
    .addColumn('first_seen_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('threat_indicators_pk', ['value', 'feed'])
    .execute();

  await db.schema
    .createTable('threat_feeds')
    .addColumn('name', 'varchar(100)', (c) => c.primaryKey())
    .addColumn('url', 'varchar(2000)', (c) => c.notNull())
    .addColumn('format', 'varchar(20)', (c) => c.notNull())
    .addColumn('indicators', 'integer', (c) => c.notNull())
    // JSON list of the CIDR prefix lengths the feed holds ('v4/24'): an address is matched
    // against its enclosing networks of these lengths only.
    .addColumn('cidr_prefixes', 'varchar(2000)', (c) => c.notNull())
    .addColumn('imported_at', 'bigint')
    .addColumn('attempted_at', 'bigint', (c) => c.notNull())
    .addColumn('error', 'varchar(500)')
    .execute();

  await db.schema
    .createTable('span_peers')
    // Like spans: no foreign key, ingest never waits on the companies table; old rows are pruned.
    .addColumn('company_id', 'varchar(36)', (c) => c.notNull())
    .addColumn('host', 'varchar(253)', (c) => c.notNull())
    .addColumn('service', 'varchar(200)', (c) => c.notNull())
    .addColumn('first_seen_at', 'bigint', (c) => c.notNull())
    .addColumn('last_seen_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('span_peers_pk', ['company_id', 'host', 'service'])
    .execute();
  await db.schema.createIndex('span_peers_recent').on('span_peers').columns(['company_id', 'last_seen_at']).execute();

  await db.schema
    .createTable('threat_lookalikes')
    .addColumn('company_id', 'varchar(36)', (c) => c.notNull().references('companies.id').onDelete('cascade'))
    .addColumn('domain', 'varchar(253)', (c) => c.notNull())
    .addColumn('candidate', 'varchar(253)', (c) => c.notNull())
    .addColumn('technique', 'varchar(20)', (c) => c.notNull())
    .addColumn('registered', 'integer', (c) => c.notNull())
    .addColumn('first_registered_at', 'bigint')
    .addColumn('checked_at', 'bigint')
    .addPrimaryKeyConstraint('threat_lookalikes_pk', ['company_id', 'candidate'])
    .execute();
  await db.schema.createIndex('threat_lookalikes_due').on('threat_lookalikes').columns(['company_id', 'checked_at']).execute();

  await db.schema
    .createTable('threat_breaches')
    .addColumn('company_id', 'varchar(36)', (c) => c.primaryKey().references('companies.id').onDelete('cascade'))
    .addColumn('domain', 'varchar(253)', (c) => c.notNull())
    .addColumn('checked_at', 'bigint', (c) => c.notNull())
    .addColumn('breaches', 'text', (c) => c.notNull())
    .addColumn('error', 'varchar(500)')
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const t of ['threat_breaches', 'threat_lookalikes', 'span_peers', 'threat_feeds', 'threat_indicators'])
    await db.schema.dropTable(t).execute();
}
