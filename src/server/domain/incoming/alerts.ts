// The alerts another tool sent about an incident (incoming_alerts), for whoever may read the
// incident: each with the labels and annotations as the tool sent them (capped, bodies.ts).
import { incidentsRepo } from '../../db/repositories/incidents-repo.ts';
import { incomingAlertsRepo, type IncomingAlertRow } from '../../db/repositories/incoming-alerts-repo.ts';
import { companyScope, requirePermission } from '../authz.ts';
import type { Ctx } from '../context.ts';
import { notFound } from '../errors.ts';
import { toIso } from '../ids.ts';
import type { AlertLevel } from './severity.ts';

function present(r: IncomingAlertRow) {
  const d = JSON.parse(r.detail) as { labels?: Record<string, string>; annotations?: Record<string, string>; url?: string | null };
  return {
    fingerprint: r.fingerprint,
    status: r.status as 'firing' | 'resolved',
    title: r.title,
    severity: r.severity as AlertLevel,
    labels: d.labels ?? {},
    annotations: d.annotations ?? {},
    url: d.url ?? null,
    first_seen_at: toIso(r.first_seen_at),
    last_seen_at: toIso(r.last_seen_at),
  };
}

export async function listIncidentAlerts(ctx: Ctx, incidentId: string) {
  requirePermission(ctx, 'view', 'monitors', 'view incidents');
  const incident = await incidentsRepo(ctx.services.db).findById(incidentId, companyScope(ctx, null));
  if (!incident) throw notFound('Incident');
  return (await incomingAlertsRepo(ctx.services.db).alertsOf(incident.id)).map(present);
}
