// A proof of control vouches for the addresses the name pointed at when it was proven (issue 25,
// item 16): without this a company could prove a name in its own zone and then point it, or have
// it point from the start of a later change, at someone else's server and have it scanned.
// `verified_addresses` holds those addresses (JSON array; null for assets verified before this
// migration, which are bound to the name's addresses at their first scan, analysis or proof
// lookup). `renewal_reason` is
// set when the name was seen pointing elsewhere: nothing connects to it until an admin proves
// control again ("proof needs renewing").
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('security_assets').addColumn('verified_addresses', 'text').execute();
  await db.schema.alterTable('security_assets').addColumn('renewal_reason', 'varchar(500)').execute();
  await db.schema.alterTable('security_assets').addColumn('renewal_needed_at', 'bigint').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('security_assets').dropColumn('renewal_needed_at').execute();
  await db.schema.alterTable('security_assets').dropColumn('renewal_reason').execute();
  await db.schema.alterTable('security_assets').dropColumn('verified_addresses').execute();
}
