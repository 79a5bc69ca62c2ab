// Automatic incidents: the engine's state machine says when a monitor goes down and comes back;
// opening and resolving the incident, its public updates and its notifications happen here,
// inside the transaction that records the result (engine/result-writer.ts calls these through
// the MonitorIncidents port; services.ts wires them in).
import { formatDuration } from '../../../lib/duration.ts';
import { incidentsRepo } from '../../db/repositories/incidents-repo.ts';
import { incidentSeverity, incidentTitle } from '../../engine/state-machine.ts';
import type { Dependents, DownWhere, IncidentMonitor, MonitorIncidents } from '../../engine/ports.ts';
import type { NotificationDraft } from '../../notify/notify.ts';
import { enqueueIncidentNotice } from '../../notify/outbox/subscriber-enqueue.ts';
import { newId } from '../ids.ts';
import { refreshEvidence } from './evidence/index.ts';
import { publicUpdateText } from '../status-page/view.ts';

// The automatic incident's updates are public when the monitor is: they never carry the
// checker's error (a target's words, internal addresses); company users find it in the check history.
const openedUpdate = (monitorName: string, dependents?: Dependents): string =>
  `${monitorName} is not responding as expected.${dependents ? ` ${dependents.count} dependent monitor${dependents.count === 1 ? ' is' : 's are'} affected.` : ''}`;
/** "12 dependent monitors unreachable" */
const unreachable = (n: number) => `${n} dependent monitor${n === 1 ? '' : 's'} unreachable`;
const resolvedUpdate = (monitorName: string): string => `${monitorName} is back up.`;

/** An engine update as status-page subscribers read it: the public page's words, no monitor name. */
const publicOf = (u: { status: 'open' | 'resolved'; message: string }) => ({
  status: u.status,
  message: publicUpdateText({ ...u, created_by: null }),
});

export const monitorIncidents: MonitorIncidents = {
  // Only the engine's own incidents: a manual incident on the monitor is resolved by a person.
  async openOf(tx, monitorIds) {
    const rows = await incidentsRepo(tx).openAutomaticForMonitors(monitorIds);
    return new Map(rows.map((o) => [o.monitor_id!, { id: o.id, startedAt: o.started_at }]));
  },

  async open(tx, notify, m, startedAt, error, now, where, dependents) {
    const incidents = incidentsRepo(tx);
    const severity = incidentSeverity(m.is_critical);
    const id = newId();
    const opened = await incidents.openForMonitor({
      id,
      company_id: m.company_id,
      monitor_id: m.id,
      title: incidentTitle(m.name),
      severity,
      status: 'open',
      is_public: m.is_public,
      started_at: startedAt,
      resolved_at: null,
      created_by: null,
      created_at: now,
      updated_at: now,
      down_where: where ? JSON.stringify(where) : null,
    });
    if (!opened) return null;
    const opening = { id: newId(), status: 'open' as const, message: openedUpdate(m.name, dependents) };
    await incidents.addUpdate({ ...opening, incident_id: id, company_id: m.company_id, created_by: null, created_at: now });
    await enqueueIncidentNotice(tx, { incidentId: id, updateId: opening.id, event: 'incident.created', ...publicOf(opening) }, now);
    // The evidence panel is built in the same transaction, before the alert is drafted, so the
    // alert carries its one line and the incident never exists without its panel.
    // A panel that cannot be built must not keep the incident from opening: the
    // incident-evidence job builds it again within a minute.
    const evidence = await refreshEvidence(tx, id, now).catch(() => undefined);
    await notify(m.company_id, openedDraft(m, { id, severity }, error, where, dependents, evidence?.alertLine || null));
    return { id, startedAt };
  },

  async resolve(tx, notify, m, incident, resolvedAt, now) {
    const incidents = incidentsRepo(tx);
    await incidents.update(incident.id, { status: 'resolved', resolved_at: resolvedAt, updated_at: now });
    const resolution = { id: newId(), status: 'resolved' as const, message: resolvedUpdate(m.name) };
    await incidents.addUpdate({ ...resolution, incident_id: incident.id, company_id: m.company_id, created_by: null, created_at: now });
    await enqueueIncidentNotice(
      tx,
      { incidentId: incident.id, updateId: resolution.id, event: 'incident.resolved', ...publicOf(resolution) },
      now,
    );
    await notify(m.company_id, resolvedDraft(m, incident.id, resolvedAt - incident.startedAt));
  },
};

function openedDraft(
  m: IncidentMonitor,
  incident: { id: string; severity: 'critical' | 'high' },
  error: string | null,
  where: DownWhere | undefined,
  dependents: Dependents | undefined,
  evidenceLine: string | null,
): NotificationDraft {
  // Checked from several locations: the alert says where ("Shop is down from Frankfurt and
  // Virginia, 2 of 3 locations; Singapore sees it up. Timed out after 10 s").
  const own = where
    ? `${m.name} is down ${where.text}.${error ? ` ${error}` : ''}`
    : error
      ? `${m.name} is down: ${error}`
      : `${m.name} is down.`;
  // Its dependents' failures send no alert of their own (engine/dependencies.ts): this one names them.
  const told = dependents ? `${m.name} down: ${unreachable(dependents.count)} (${namesText(dependents.names)}). ${own}` : own;
  // What changed, in one line, where the evidence panel found something (domain/incidents/evidence).
  const message = evidenceLine ? `${told}\nWhat changed: ${evidenceLine}.` : told;
  return {
    type: 'monitor_incident',
    severity: incident.severity,
    title: `${m.name} is down`,
    message,
    details: error,
    metadata: {
      monitor_id: m.id,
      incident_id: incident.id,
      event: 'opened',
      ...(where ? { locations: { down: where.down, up: where.up, absent: where.absent } } : {}),
      ...(dependents ? { dependents: { count: dependents.count, monitor_ids: dependents.ids, names: dependents.names } } : {}),
      ...(evidenceLine ? { evidence_line: evidenceLine } : {}),
    },
    actionUrl: `/monitors/incidents/${incident.id}`,
    dedupeKey: `incident:${incident.id}:opened`,
  };
}

const namesText = (names: string[]) =>
  names.length > 5 ? `${names.slice(0, 5).join(', ')} and ${names.length - 5} more` : names.join(', ');

function resolvedDraft(m: IncidentMonitor, incidentId: string, downForMs: number): NotificationDraft {
  return {
    type: 'monitor_incident',
    severity: 'info',
    title: `${m.name} is back up`,
    message: `${m.name} recovered after ${formatDuration(downForMs)} down.`,
    details: null,
    metadata: { monitor_id: m.id, incident_id: incidentId, event: 'resolved' },
    actionUrl: `/monitors/incidents/${incidentId}`,
    dedupeKey: `incident:${incidentId}:resolved`,
  };
}
