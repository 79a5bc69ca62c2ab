// SQL for issue tracker channels (migration 0540): the issue each (channel, incident) opened, and
// the comments deliveries made on it.
import type { Selectable } from 'kysely';
import type { AlertIssueLinksTable } from '../schema/alerts.ts';
import type { DbScope } from '../scope.ts';

export type IssueLinkRow = Selectable<AlertIssueLinksTable>;

export function issueLinksRepo(db: DbScope) {
  const k = db.k;
  return {
    async find(channelId: string, incidentId: string): Promise<IssueLinkRow | undefined> {
      return k
        .selectFrom('alert_issue_links')
        .selectAll()
        .where('channel_id', '=', channelId)
        .where('incident_id', '=', incidentId)
        .executeTakeFirst();
    },
    /** Keeps the first issue opened for the pair; a second (a race) is ignored. */
    async insert(row: IssueLinkRow): Promise<void> {
      await k
        .insertInto('alert_issue_links')
        .values(row)
        .onConflict((oc) => oc.columns(['channel_id', 'incident_id']).doNothing())
        .execute();
    },
    async commented(deliveryId: string): Promise<boolean> {
      return !!(await k.selectFrom('alert_issue_comments').select('delivery_id').where('delivery_id', '=', deliveryId).executeTakeFirst());
    },
    async recordComment(row: { delivery_id: string; channel_id: string; incident_id: string; created_at: number }): Promise<void> {
      await k
        .insertInto('alert_issue_comments')
        .values(row)
        .onConflict((oc) => oc.column('delivery_id').doNothing())
        .execute();
    },
  };
}
