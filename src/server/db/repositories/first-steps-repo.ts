// SQL for the first-steps card: whether a company has a monitor, a public monitor, an alert
// channel and a second user, in one round trip of four indexed existence checks.
import { sql, type Expression } from 'kysely';
import type { DbScope } from '../scope.ts';

export interface FirstStepsDone {
  monitor: boolean;
  status_page: boolean;
  alerts: boolean;
  team: boolean;
}

export function firstStepsRepo(db: DbScope) {
  const k = db.k;
  return {
    async done(companyId: string): Promise<FirstStepsDone> {
      const exists = (q: Expression<unknown>) => sql<number>`(case when exists ${q} then 1 else 0 end)`;
      const r = await k
        .selectNoFrom([
          exists(k.selectFrom('monitors').select('id').where('company_id', '=', companyId)).as('monitor'),
          exists(k.selectFrom('monitors').select('id').where('company_id', '=', companyId).where('is_public', '=', true)).as('status_page'),
          exists(k.selectFrom('alert_channels').select('id').where('company_id', '=', companyId)).as('alerts'),
          // a second user: skip one row of the company's users
          exists(k.selectFrom('users').select('id').where('company_id', '=', companyId).limit(1).offset(1)).as('team'),
        ])
        .executeTakeFirstOrThrow();
      return {
        monitor: Number(r.monitor) === 1,
        status_page: Number(r.status_page) === 1,
        alerts: Number(r.alerts) === 1,
        team: Number(r.team) === 1,
      };
    },
  };
}
