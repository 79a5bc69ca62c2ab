// The outbox's write side: inside the transaction of a state change, one delivery per enabled
// channel of the company whose filters take the alert. The payload is the alert as it was then
// (company, links and the delivery id are added when it is sent).
import { alertChannelsRepo, type AlertChannelRow } from '../../db/repositories/alert-channels-repo.ts';
import { alertDeliveriesRepo } from '../../db/repositories/alert-deliveries-repo.ts';
import { incidentsRepo } from '../../db/repositories/incidents-repo.ts';
import { monitorsRepo } from '../../db/repositories/monitors-repo.ts';
import type { AlertEventType, AlertMaintenanceRef, AlertSeverity } from '../channels/channel.ts';
import type { NotificationDraft } from '../draft.ts';
import { alertEventOf, channelTakes } from './alert-event.ts';
import { newDelivery, type AlertPayload } from './payload.ts';
import { deliveriesWritten } from './wake.ts';
import type { DbScope } from '../../db/scope.ts';
import { impactOf } from '../../../lib/status.ts';

/**
 * Writes the deliveries of one draft; `channels` caches each company's enabled channels;
 * `only`, when given, narrows the channels further (a related signal skips those its incident reached).
 */
export async function enqueueAlerts(
  tx: DbScope,
  channels: Map<string, AlertChannelRow[]>,
  companyId: string,
  draft: NotificationDraft,
  now: number,
  only?: (c: AlertChannelRow) => boolean,
): Promise<void> {
  const event = alertEventOf(draft);
  if (!event) return;
  let mine = channels.get(companyId);
  if (!mine) {
    mine = await alertChannelsRepo(tx).enabledOf(companyId);
    channels.set(companyId, mine);
  }
  if (mine.length === 0) return;
  const monitorId = typeof draft.metadata.monitor_id === 'string' ? draft.metadata.monitor_id : null;
  const incidentId = typeof draft.metadata.incident_id === 'string' ? draft.metadata.incident_id : null;
  const incident = incidentId ? await incidentsRepo(tx).findById(incidentId, companyId) : undefined;
  // A resolution reaches the channels its opening reached: it is judged by the incident's severity.
  const severity: AlertSeverity = event === 'incident.resolved' && incident ? (incident.severity as AlertSeverity) : draft.severity;
  const takers = mine.filter(
    (c) =>
      (!only || only(c)) &&
      channelTakes(
        {
          events: JSON.parse(c.events),
          monitorIds: c.monitor_ids ? JSON.parse(c.monitor_ids) : null,
          minSeverity: c.min_severity as AlertSeverity,
        },
        { event, severity, monitorId },
      ),
  );
  if (takers.length === 0) return;
  const payload = await payloadOf(tx, companyId, draft, event, now);
  await alertDeliveriesRepo(tx).insertIdempotent(takers.map((c) => newDelivery(c, draft.dedupeKey, payload, now)));
  deliveriesWritten(tx);
}

/** The alert as it is now, for every delivery of a draft (channels and people). */
export async function payloadOf(
  tx: DbScope,
  companyId: string,
  draft: NotificationDraft,
  event: AlertEventType,
  now: number,
): Promise<AlertPayload> {
  const monitorId = typeof draft.metadata.monitor_id === 'string' ? draft.metadata.monitor_id : null;
  const incidentId = typeof draft.metadata.incident_id === 'string' ? draft.metadata.incident_id : null;
  const monitor = monitorId ? await monitorsRepo(tx).findById(monitorId, companyId) : undefined;
  const incident = incidentId ? await incidentsRepo(tx).findById(incidentId, companyId) : undefined;
  return {
    event,
    severity: draft.severity,
    title: draft.title,
    message: draft.message,
    occurredAt: now,
    monitor: monitor ? { id: monitor.id, name: monitor.name, target: targetOf(monitor.config) } : null,
    monitors: [],
    incident: incident ? { id: incident.id, title: incident.title, status: incident.status, impact: impactOf(incident.severity) } : null,
    maintenance: maintenanceOf(draft.metadata.maintenance),
  };
}

/** The maintenance occurrence a maintenance notice's draft carries (null for other drafts). */
function maintenanceOf(v: unknown): AlertMaintenanceRef | null {
  const m = v as Partial<AlertMaintenanceRef> | null | undefined;
  if (!m || typeof m.id !== 'string' || typeof m.title !== 'string' || typeof m.starts_at !== 'number' || typeof m.ends_at !== 'number')
    return null;
  return { id: m.id, title: m.title, starts_at: m.starts_at, ends_at: m.ends_at };
}

/** The monitor's target as its company typed it (URL, host:port, host). */
export function targetOf(config: string): string {
  const c = JSON.parse(config) as { url?: string; host?: string; port?: number };
  if (c.url) return c.url;
  if (c.host) return c.port ? `${c.host}:${c.port}` : c.host;
  return '';
}
