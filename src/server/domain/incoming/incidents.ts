// What a batch of incoming alerts does to incidents, inside one transaction, through the same
// paths as the check engine's own incidents (incidents/automatic.ts): the incident row and its
// first update, the status-page subscribers' notice, and a `monitor_incident` draft to `notify`,
// so the company's channel filters, grouping, rate limits, personal preferences and escalation
// policy apply to it as to a monitor's outage.
//
// One incident per (source, key). A firing batch with no open incident opens one; one with an
// open incident records each alert by fingerprint and adds an update only when an alert starts
// firing or resolves (a repeat notification changes nothing people read). The incident resolves
// when the tool says the whole group is resolved, or when every alert it knows of has resolved
// and the tool sent the whole group.
import { incidentsRepo, type IncidentRow } from '../../db/repositories/incidents-repo.ts';
import { incomingAlertsRepo, type IncomingAlertRow } from '../../db/repositories/incoming-alerts-repo.ts';
import type { IncomingSourceRow } from '../../db/repositories/incoming-sources-repo.ts';
import { monitorsRepo } from '../../db/repositories/monitors-repo.ts';
import type { DbScope } from '../../db/scope.ts';
import { formatDuration } from '../../../lib/duration.ts';
import type { Notify, NotificationDraft } from '../../notify/notify.ts';
import { enqueueIncidentNotice } from '../../notify/outbox/subscriber-enqueue.ts';
import { publicUpdateText } from '../status-page/view.ts';
import { newId } from '../ids.ts';
import { clean, type IncomingAlert, type IncomingBatch } from './bodies.ts';
import { ALERT_LEVELS, type AlertLevel, highestLevel, incidentSeverityOf } from './severity.ts';

export type Outcome = 'opened' | 'updated' | 'unchanged' | 'resolved' | 'ignored';

const KIND_LABEL: Record<IncomingSourceRow['kind'], string> = { alertmanager: 'Alertmanager', grafana: 'Grafana', generic: 'Webhook' };
const DETAIL_MAX = 4000;
const LINE_MAX = 600;

/** "severity=critical, instance=api-1": the labels people read in the console and in alerts. */
const labelsText = (a: IncomingAlert) =>
  Object.entries(a.labels)
    .filter(([k]) => k !== 'alertname')
    .map(([k, v]) => `${k}=${v}`)
    .join(', ');
/** One alert in a line: its title and labels, capped (a tool may send 50 labels of 500 characters). */
const alertLine = (a: IncomingAlert) => {
  const labels = labelsText(a);
  return clean(labels ? `${a.title} (${labels})` : a.title, LINE_MAX);
};
const listOf = (alerts: IncomingAlert[]) => {
  const shown = alerts.slice(0, 5).map(alertLine).join('; ');
  return alerts.length > 5 ? `${shown}; and ${alerts.length - 5} more` : shown;
};
/** What the tool said about one alert, kept whole (bodies.ts caps each label and annotation, and their number). */
const detailOf = (a: IncomingAlert) => JSON.stringify({ labels: a.labels, annotations: a.annotations, url: a.url });

/** An incoming incident's update as status-page subscribers read it: the page's neutral words. */
const publicOf = (u: { status: 'open' | 'resolved'; message: string }) => ({
  status: u.status,
  message: publicUpdateText({ ...u, created_by: null }),
});

export async function applyBatch(
  tx: DbScope,
  notify: Notify,
  source: IncomingSourceRow,
  batch: IncomingBatch,
  now: number,
  componentIds: string[],
): Promise<{ outcome: Outcome; incidentId: string | null }> {
  const repo = incomingAlertsRepo(tx);
  let incident = await repo.openIncident(source.id, batch.key);
  if (!incident) {
    const firing = batch.alerts.filter((a) => a.status === 'firing');
    // Nothing open to resolve (a resolution of an incident resolved by hand, or of one never seen).
    if (batch.status === 'resolved' || firing.length === 0) return { outcome: 'ignored', incidentId: null };
    const opened = await openIncident(tx, notify, source, batch, firing, now, componentIds);
    if (opened) return { outcome: 'opened', incidentId: opened };
    // Another request of the same group opened it a moment ago: this one updates it.
    incident = await repo.openIncident(source.id, batch.key);
    if (!incident) return { outcome: 'ignored', incidentId: null };
  }
  return { outcome: await updateIncident(tx, notify, source, incident, batch, now), incidentId: incident.id };
}

async function openIncident(
  tx: DbScope,
  notify: Notify,
  source: IncomingSourceRow,
  batch: IncomingBatch,
  firing: IncomingAlert[],
  now: number,
  wanted: string[],
): Promise<string | null> {
  const id = newId();
  const level = highestLevel(
    firing.map((a) => a.level),
    source.default_severity as AlertLevel,
  );
  // Only the company's monitors still there: a component deleted since the source was saved is left out.
  const monitors = monitorsRepo(tx);
  const components: string[] = [];
  for (const mid of wanted) if (await monitors.findById(mid, source.company_id)) components.push(mid);
  const opened = await incomingAlertsRepo(tx).openIncidentFor({
    id,
    company_id: source.company_id,
    monitor_id: null,
    title: batch.title,
    severity: incidentSeverityOf(level),
    status: 'open',
    // An incident marking no component stays off the status page (it would read as the whole company's).
    is_public: components.length > 0,
    started_at: now,
    resolved_at: null,
    created_by: null,
    created_at: now,
    updated_at: now,
    incoming_source_id: source.id,
    incoming_key: batch.key,
    marks_impact: components.length > 0 ? source.component_impact : null,
  });
  if (!opened) return null;
  const incidents = incidentsRepo(tx);
  if (components.length) await incidents.setMonitors(id, source.company_id, components);
  for (const a of batch.alerts) await insertAlert(tx, source.company_id, id, a, now);
  const from = `${KIND_LABEL[source.kind]} source "${source.name}"`;
  const opening = {
    id: newId(),
    status: 'open' as const,
    message: `${from}: ${firing.length} alert${firing.length === 1 ? '' : 's'} firing: ${listOf(firing)}.`,
  };
  await incidents.addUpdate({ ...opening, incident_id: id, company_id: source.company_id, created_by: null, created_at: now });
  await enqueueIncidentNotice(tx, { incidentId: id, updateId: opening.id, event: 'incident.created', ...publicOf(opening) }, now);
  await notify(source.company_id, openedDraft(source, id, batch.title, level, firing));
  return id;
}

async function insertAlert(tx: DbScope, companyId: string, incidentId: string, a: IncomingAlert, now: number): Promise<void> {
  await incomingAlertsRepo(tx).insertAlert({
    id: newId(),
    company_id: companyId,
    incident_id: incidentId,
    fingerprint: a.fingerprint,
    status: a.status,
    title: a.title,
    severity: a.level,
    detail: detailOf(a),
    first_seen_at: now,
    last_seen_at: now,
  });
}

async function updateIncident(
  tx: DbScope,
  notify: Notify,
  source: IncomingSourceRow,
  incident: IncidentRow,
  batch: IncomingBatch,
  now: number,
): Promise<Outcome> {
  const repo = incomingAlertsRepo(tx);
  const known = new Map<string, IncomingAlertRow>((await repo.alertsOf(incident.id)).map((r) => [r.fingerprint, r]));
  const started: IncomingAlert[] = [];
  const ended: IncomingAlert[] = [];
  for (const a of batch.alerts) {
    const row = known.get(a.fingerprint);
    if (!row) {
      await insertAlert(tx, source.company_id, incident.id, a, now);
      if (a.status === 'firing') started.push(a);
      known.set(a.fingerprint, { fingerprint: a.fingerprint, status: a.status } as IncomingAlertRow);
      continue;
    }
    if (row.status !== a.status) (a.status === 'firing' ? started : ended).push(a);
    await repo.updateAlert(row.id, { status: a.status, title: a.title, severity: a.level, detail: detailOf(a), last_seen_at: now });
    row.status = a.status;
  }
  const stillFiring = [...known.values()].filter((r) => r.status === 'firing').length;
  const allResolved = batch.status === 'resolved' || (batch.complete && stillFiring === 0);
  const incidents = incidentsRepo(tx);
  if (allResolved) {
    await incidents.update(incident.id, { status: 'resolved', resolved_at: now, updated_at: now });
    const resolution = {
      id: newId(),
      status: 'resolved' as const,
      message: `${KIND_LABEL[source.kind]} source "${source.name}": all alerts resolved.`,
    };
    await incidents.addUpdate({
      ...resolution,
      incident_id: incident.id,
      company_id: source.company_id,
      created_by: null,
      created_at: now,
    });
    await enqueueIncidentNotice(
      tx,
      { incidentId: incident.id, updateId: resolution.id, event: 'incident.resolved', ...publicOf(resolution) },
      now,
    );
    await notify(source.company_id, resolvedDraft(source, incident, now - Number(incident.started_at)));
    return 'resolved';
  }
  if (started.length === 0 && ended.length === 0) return 'unchanged';
  // A newly firing alert more severe than the incident raises it (a milder one does not lower it).
  const level = highestLevel(
    started.map((a) => a.level),
    'info',
  );
  const raised =
    started.length > 0 && ALERT_LEVELS.indexOf(incidentSeverityOf(level)) > ALERT_LEVELS.indexOf(incident.severity as AlertLevel);
  const parts = [
    ...(started.length ? [`firing: ${listOf(started)}`] : []),
    ...(ended.length ? [`resolved: ${listOf(ended)}`] : []),
    `${stillFiring} alert${stillFiring === 1 ? '' : 's'} still firing`,
  ];
  await incidents.update(incident.id, { updated_at: now, ...(raised ? { severity: incidentSeverityOf(level) } : {}) });
  await incidents.addUpdate({
    id: newId(),
    incident_id: incident.id,
    company_id: source.company_id,
    status: 'open',
    message: `${KIND_LABEL[source.kind]} source "${source.name}": ${parts.join('; ')}.`,
    created_by: null,
    created_at: now,
  });
  return 'updated';
}

function openedDraft(
  source: IncomingSourceRow,
  incidentId: string,
  title: string,
  level: AlertLevel,
  firing: IncomingAlert[],
): NotificationDraft {
  return {
    type: 'monitor_incident',
    severity: level,
    title,
    message: `${KIND_LABEL[source.kind]} source "${source.name}" reports ${firing.length} alert${firing.length === 1 ? '' : 's'} firing: ${listOf(firing)}.`,
    details: firing
      .map((a) =>
        [alertLine(a), ...Object.entries(a.annotations).map(([k, v]) => `  ${k}: ${v}`), ...(a.url ? [`  ${a.url}`] : [])].join('\n'),
      )
      .join('\n')
      .slice(0, DETAIL_MAX),
    metadata: {
      incident_id: incidentId,
      event: 'opened',
      incoming_source: { id: source.id, name: source.name, kind: source.kind },
      alerts: firing.slice(0, 20).map((a) => ({ fingerprint: a.fingerprint, labels: a.labels })),
    },
    actionUrl: `/monitors/incidents/${incidentId}`,
    dedupeKey: `incident:${incidentId}:opened`,
  };
}

function resolvedDraft(source: IncomingSourceRow, incident: IncidentRow, forMs: number): NotificationDraft {
  return {
    type: 'monitor_incident',
    severity: 'info',
    title: `Resolved: ${incident.title}`,
    message: `${KIND_LABEL[source.kind]} source "${source.name}" resolved "${incident.title}" after ${formatDuration(forMs)}.`,
    details: null,
    metadata: { incident_id: incident.id, event: 'resolved', incoming_source: { id: source.id, name: source.name, kind: source.kind } },
    actionUrl: `/monitors/incidents/${incident.id}`,
    dedupeKey: `incident:${incident.id}:resolved`,
  };
}
