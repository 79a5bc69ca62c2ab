// The deliveries of one escalation step: `incident.escalated` to the step's channels (the ones
// still enabled; the policy names them, so their event filters do not apply) and to the step's
// users personally, by their preferences. Each is keyed `escalation:{incident}:{step}`, so a step
// written twice (two runners, a retried transaction) is sent once.
import { alertChannelsRepo } from '../../db/repositories/alert-channels-repo.ts';
import { alertDeliveriesRepo } from '../../db/repositories/alert-deliveries-repo.ts';
import type { EscalationStepRow } from '../../db/repositories/escalation-repo.ts';
import type { IncidentRow } from '../../db/repositories/incidents-repo.ts';
import { monitorsRepo } from '../../db/repositories/monitors-repo.ts';
import { personalDeliveriesRepo } from '../../db/repositories/personal-deliveries-repo.ts';
import type { DbScope } from '../../db/scope.ts';
import type { AlertSeverity } from '../channels/channel.ts';
import { targetOf } from './enqueue.ts';
import { newDelivery, type AlertPayload } from './payload.ts';
import { contactsFor, personalRows } from './personal.ts';
import { deliveriesWritten } from './wake.ts';
import { impactOf } from '../../../lib/status.ts';

export async function enqueueEscalationStep(tx: DbScope, incident: IncidentRow, step: EscalationStepRow, now: number): Promise<void> {
  const key = `escalation:${incident.id}:${step.position}`;
  const monitor = incident.monitor_id ? await monitorsRepo(tx).findById(incident.monitor_id, incident.company_id) : undefined;
  const payload: AlertPayload = {
    event: 'incident.escalated',
    severity: incident.severity as AlertSeverity,
    title: `Not acknowledged: ${incident.title}`,
    message: `"${incident.title}" has not been acknowledged ${step.after_minutes} minutes after it started (escalation step ${step.position + 1}).`,
    occurredAt: now,
    monitor: monitor ? { id: monitor.id, name: monitor.name, target: targetOf(monitor.config) } : null,
    monitors: [],
    incident: { id: incident.id, title: incident.title, status: incident.status, impact: impactOf(incident.severity) },
    maintenance: null,
  };
  const wanted = new Set(JSON.parse(step.channel_ids) as string[]);
  const channels = (await alertChannelsRepo(tx).enabledOf(incident.company_id)).filter((c) => wanted.has(c.id));
  await alertDeliveriesRepo(tx).insertIdempotent(channels.map((c) => newDelivery(c, key, payload, now)));
  const contacts = await contactsFor(tx, incident.company_id, JSON.parse(step.user_ids) as string[], 'monitor_incident');
  const people = await personalRows(contacts, incident.company_id, key, async () => payload, now);
  await personalDeliveriesRepo(tx).insertIdempotent(people);
  deliveriesWritten(tx);
}
