// The deliveries of one escalation step: `incident.escalated` to the step's channels (the ones
// still enabled; the policy names them, so their event filters do not apply) and to the step's
// people personally, by their preferences: the users it names, whoever was on call in its
// schedules when it fell due, and at the last step the whole team if the policy says so (the
// domain decides who; this writes). Each is keyed `escalation:{incident}:{position}` (positions
// count on across repeated rounds), so a step written twice is sent once; each personal delivery
// is also recorded as a page of the incident (who, how, which step and round, through which
// schedule).
import { alertChannelsRepo } from '../../db/repositories/alert-channels-repo.ts';
import { alertDeliveriesRepo } from '../../db/repositories/alert-deliveries-repo.ts';
import type { EscalationStepRow } from '../../db/repositories/escalation-repo.ts';
import { incidentPagesRepo } from '../../db/repositories/incident-pages-repo.ts';
import type { IncidentRow } from '../../db/repositories/incidents-repo.ts';
import { monitorsRepo } from '../../db/repositories/monitors-repo.ts';
import { personalDeliveriesRepo } from '../../db/repositories/personal-deliveries-repo.ts';
import type { PageReason } from '../../db/schema/oncall.ts';
import type { DbScope } from '../../db/scope.ts';
import type { AlertSeverity } from '../channels/channel.ts';
import { targetOf } from './enqueue.ts';
import { newDelivery, type AlertPayload } from './payload.ts';
import { contactsFor, personalRows } from './personal.ts';
import { deliveriesWritten } from './wake.ts';
import { impactOf } from '../../../lib/status.ts';
import { randomUUID } from 'node:crypto';

export interface PagedPerson {
  userId: string;
  reason: PageReason;
  scheduleId: string | null;
  scheduleName: string | null;
}

export interface EscalationSend {
  step: EscalationStepRow;
  /** 0 for the first pass, 1.. for repeats */
  round: number;
  /** The step's index in the policy */
  index: number;
  /** round x steps + index: the incident's step count after this one is position + 1 */
  position: number;
  /** Minutes after the incident started when this step fell due */
  afterMinutes: number;
  /** Whom to alert personally, each once (the first reason wins) */
  people: PagedPerson[];
}

export async function enqueueEscalationStep(tx: DbScope, incident: IncidentRow, send: EscalationSend, now: number): Promise<void> {
  const key = `escalation:${incident.id}:${send.position}`;
  const monitor = incident.monitor_id ? await monitorsRepo(tx).findById(incident.monitor_id, incident.company_id) : undefined;
  const repeat = send.round > 0 ? `, repeat ${send.round}` : '';
  const payload: AlertPayload = {
    event: 'incident.escalated',
    severity: incident.severity as AlertSeverity,
    title: `Not acknowledged: ${incident.title}`,
    message: `"${incident.title}" has not been acknowledged ${send.afterMinutes} minutes after it started (escalation step ${send.index + 1}${repeat}).`,
    occurredAt: now,
    monitor: monitor ? { id: monitor.id, name: monitor.name, target: targetOf(monitor.config) } : null,
    monitors: [],
    incident: { id: incident.id, title: incident.title, status: incident.status, impact: impactOf(incident.severity) },
    maintenance: null,
  };
  const wanted = new Set(JSON.parse(send.step.channel_ids) as string[]);
  const channels = (await alertChannelsRepo(tx).enabledOf(incident.company_id)).filter((c) => wanted.has(c.id));
  await alertDeliveriesRepo(tx).insertIdempotent(channels.map((c) => newDelivery(c, key, payload, now)));
  const byUser = new Map(send.people.map((p) => [p.userId, p]));
  const contacts = await contactsFor(tx, incident.company_id, [...byUser.keys()], 'monitor_incident');
  const rows = await personalRows(contacts, incident.company_id, key, async () => payload, now);
  await personalDeliveriesRepo(tx).insertIdempotent(rows);
  await incidentPagesRepo(tx).insertIdempotent(
    rows.map((r) => {
      const who = byUser.get(r.user_id!)!;
      return {
        id: randomUUID(),
        incident_id: incident.id,
        company_id: incident.company_id,
        round: send.round,
        step: send.index,
        user_id: who.userId,
        schedule_id: who.scheduleId,
        schedule_name: who.scheduleName,
        reason: who.reason,
        channel: r.target!,
        sent_at: now,
      };
    }),
  );
  deliveriesWritten(tx);
}
