// "Each page shows who was reached, how, and when they acknowledged": the pages an incident's
// escalation sent, with the incident's acknowledgement (by whom, when) on each.
import { incidentPagesRepo } from '../../db/repositories/incident-pages-repo.ts';
import { incidentsRepo } from '../../db/repositories/incidents-repo.ts';
import { usersRepo } from '../../db/repositories/users-repo.ts';
import { companyScope, requirePermission } from '../authz.ts';
import type { Ctx } from '../context.ts';
import { notFound } from '../errors.ts';
import { toIso, toIsoOrNull } from '../ids.ts';

export async function listIncidentPages(ctx: Ctx, incidentId: string) {
  requirePermission(ctx, 'view', 'monitors', 'view incidents');
  const db = ctx.services.db;
  const incident = await incidentsRepo(db).findById(incidentId, companyScope(ctx, null));
  if (!incident) throw notFound('Incident');
  const ackBy = incident.acknowledged_by ? await usersRepo(db).findById(incident.acknowledged_by) : undefined;
  const acknowledgedBy = ackBy ? { id: ackBy.id, name: ackBy.full_name } : null;
  return (await incidentPagesRepo(db).ofIncident(incident.id)).map((p) => ({
    id: p.id,
    incident_id: p.incident_id,
    round: p.round,
    step: p.step,
    user_id: p.user_id,
    user_name: p.user_name,
    schedule_id: p.schedule_id,
    schedule_name: p.schedule_name,
    reason: p.reason,
    channel: p.channel as 'email' | 'sms' | 'webhook',
    sent_at: toIso(p.sent_at),
    acknowledged_at: toIsoOrNull(incident.acknowledged_at == null ? null : Number(incident.acknowledged_at)),
    acknowledged_by: acknowledgedBy,
  }));
}
