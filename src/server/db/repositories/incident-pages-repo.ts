// SQL of the pages an incident's escalation sent (migration 0520), with the people's names and
// the incident's acknowledgement for the incident's page list.
import type { Insertable } from 'kysely';
import type { IncidentPagesTable } from '../schema/oncall.ts';
import type { DbScope } from '../scope.ts';

export function incidentPagesRepo({ k }: DbScope) {
  return {
    /** Writes the pages; one already written for the same person, channel, step and round stays as it was. */
    async insertIdempotent(rows: Insertable<IncidentPagesTable>[]): Promise<void> {
      if (rows.length === 0) return;
      await k
        .insertInto('incident_pages')
        .values(rows)
        .onConflict((oc) => oc.columns(['incident_id', 'round', 'step', 'user_id', 'channel']).doNothing())
        .execute();
    },
    async ofIncident(incidentId: string) {
      const rows = await k
        .selectFrom('incident_pages as p')
        .innerJoin('users as u', 'u.id', 'p.user_id')
        .select([
          'p.id',
          'p.incident_id',
          'p.round',
          'p.step',
          'p.user_id',
          'u.full_name as user_name',
          'p.schedule_id',
          'p.schedule_name',
          'p.reason',
          'p.channel',
          'p.sent_at',
        ])
        .where('p.incident_id', '=', incidentId)
        .orderBy('p.sent_at')
        .orderBy('p.round')
        .orderBy('p.step')
        .orderBy('u.full_name')
        .orderBy('p.channel')
        .execute();
      return rows.map((r) => ({ ...r, round: Number(r.round), step: Number(r.step), sent_at: Number(r.sent_at) }));
    },
  };
}
