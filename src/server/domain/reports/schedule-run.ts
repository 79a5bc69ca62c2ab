// The scheduled reports' write side, run by the sla-reports job: for each enabled schedule that
// has not sent the last complete month or week, claim that period (a compare-and-set on
// last_sent_period) and put one mail in the alerts outbox in the same transaction. Whichever
// process runs the job, and however often, a period is queued once; the outbox then sends it
// with its retries, and the report itself is built at send time (report-send.ts).
import { randomUUID } from 'node:crypto';
import { lastCompletePeriod, type ReportFrequency } from '../../../lib/report-periods.ts';
import { reportSchedulesRepo } from '../../db/repositories/report-schedules-repo.ts';
import { withTransaction, type DbScope } from '../../db/scope.ts';
import { RETRY_WINDOW_MS } from '../../notify/outbox/payload.ts';
import { deliveriesWritten } from '../../notify/outbox/wake.ts';

/** What a report delivery's payload holds: the period to report and how. */
export interface ReportMailPayload {
  period: string;
  frequency: ReportFrequency;
  from: number;
  to: number;
}

export const REPORT_EVENT = 'report.scheduled';

export async function queueScheduledReports(db: DbScope, now: number): Promise<number> {
  let queued = 0;
  for (const frequency of ['monthly', 'weekly'] as const) {
    const period = lastCompletePeriod(frequency, now);
    for (const s of await reportSchedulesRepo(db).unsent(frequency, period.key)) {
      // Nothing before the schedule existed: a schedule made mid-month starts with the next month.
      if (s.created_at > period.to) continue;
      const claimed = await withTransaction(db, async (tx) => {
        const repo = reportSchedulesRepo(tx);
        if (!(await repo.claimPeriod(s.id, period.key, now))) return false;
        const payload: ReportMailPayload = { period: period.key, frequency, from: period.from, to: period.to };
        await repo.enqueueMail({
          id: `msg_${randomUUID().replace(/-/g, '')}`,
          company_id: s.company_id,
          channel_id: null,
          subscriber_id: null,
          user_id: null,
          target: null,
          report_schedule_id: s.id,
          event: REPORT_EVENT,
          dedupe_key: `report:${s.id}:${period.key}`,
          payload: JSON.stringify(payload),
          state: 'pending',
          attempts: 0,
          next_attempt_at: now,
          retry_until: now + RETRY_WINDOW_MS,
          lease_holder: null,
          lease_expires_at: null,
          last_error: null,
          grouped_into: null,
          created_at: now,
          updated_at: now,
        });
        deliveriesWritten(tx);
        return true;
      });
      if (claimed) queued++;
    }
  }
  return queued;
}
