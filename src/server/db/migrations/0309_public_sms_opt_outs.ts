// Numbers that texted STOP (or UNSUBSCRIBE, CANCEL, END, QUIT, STOPALL) to the operator's Twilio
// number: nothing is texted to them, for any company, until they text START or UNSTOP. Carriers
// require it, and Twilio itself refuses such numbers (error 21610) until then.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('sms_opt_outs')
    .addColumn('phone', 'varchar(20)', (c) => c.primaryKey())
    .addColumn('opted_out_at', 'bigint', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('sms_opt_outs').execute();
}
