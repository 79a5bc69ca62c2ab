// SQL for the numbers that texted STOP to the operator's Twilio number (one list for every company).
import type { DbScope } from '../scope.ts';

export function smsOptOutsRepo(db: DbScope) {
  const k = db.k;
  return {
    async optedOut(phone: string): Promise<boolean> {
      return (await k.selectFrom('sms_opt_outs').select('phone').where('phone', '=', phone).executeTakeFirst()) !== undefined;
    },
    async optOut(phone: string, now: number): Promise<void> {
      await k
        .insertInto('sms_opt_outs')
        .values({ phone, opted_out_at: now })
        .onConflict((oc) => oc.column('phone').doNothing())
        .execute();
    },
    async optIn(phone: string): Promise<void> {
      await k.deleteFrom('sms_opt_outs').where('phone', '=', phone).execute();
    },
  };
}
