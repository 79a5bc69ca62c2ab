// One cause, one notification per person and channel: a warning about a monitor whose latest
// check failed for the same cause (a certificate the check refused: "Certificate … is invalid",
// the TLS analysis's "TLS problem …" and its expiry warnings) is kept in the thread of the
// monitor's open incident. Whoever the incident's own notification reached is not told again;
// whoever it did not reach (a user who wants SSL warnings but not incidents, a channel that takes
// `ssl_warning` but not `incident.opened`) gets the thread's first signal, once. While the failure
// is still being confirmed a warning is held, and the incident the failure opens takes it in (its
// first signal then goes to those the incident did not reach). A warning about another cause (an
// expiring certificate while the site answers 500) is sent as any other.
import { randomUUID } from 'node:crypto';
import type { AlertChannelRow } from '../db/repositories/alert-channels-repo.ts';
import { incidentSignalsRepo, type IncidentSignalRow } from '../db/repositories/incident-signals-repo.ts';
import { incidentsRepo } from '../db/repositories/incidents-repo.ts';
import type { NotificationType } from '../db/repositories/notifications-repo.ts';
import type { DbScope } from '../db/scope.ts';
import type { FailureCause } from '../engine/failure-cause.ts';
import type { AlertSeverity } from './channels/channel.ts';
import type { NotificationDraft } from './draft.ts';
import { channelTakes } from './outbox/alert-event.ts';

/** The failure cause each kind of warning is about; kinds not listed are never merged. */
const CAUSE_OF_TYPE: Partial<Record<NotificationType, FailureCause>> = {
  ssl_warning: 'certificate',
};

/** How long a held signal waits for its incident (confirming a failure takes minutes). */
export const HOLD_MS = 24 * 3_600_000;

/** The incident whose notification already reached some recipients, and the monitor it is about. */
export interface TellingIncident {
  id: string;
  severity: AlertSeverity;
  monitorId: string;
}

/**
 * unrelated: send as usual; merged: kept in a thread, send nothing; first: kept as the first
 * signal of `incident`'s thread, send to those the incident's notification did not reach.
 */
export type RelatedSignal =
  | { kind: 'unrelated' }
  | { kind: 'merged' }
  | { kind: 'first'; incident: TellingIncident; draft: NotificationDraft };

const monitorOf = (d: NotificationDraft) => (typeof d.metadata.monitor_id === 'string' ? d.metadata.monitor_id : null);

async function tellingIncident(tx: DbScope, companyId: string, incidentId: string, monitorId: string): Promise<TellingIncident | null> {
  const row = await incidentsRepo(tx).findById(incidentId, companyId);
  return row ? { id: row.id, severity: row.severity as AlertSeverity, monitorId } : null;
}

/** Keeps the draft in its incident's thread (or holds it for the incident to come) when it is about the cause the monitor fails for. */
export async function relatedSignal(tx: DbScope, companyId: string, draft: NotificationDraft, now: number): Promise<RelatedSignal> {
  const cause = CAUSE_OF_TYPE[draft.type];
  const monitorId = monitorOf(draft);
  if (!cause || !monitorId) return { kind: 'unrelated' };
  const repo = incidentSignalsRepo(tx);
  if ((await repo.failureCauseOf(companyId, monitorId)) !== cause) return { kind: 'unrelated' };
  const incidentId = (await repo.openIncidentOf(companyId, monitorId)) ?? null;
  const kept = await repo.insertIdempotent({
    id: randomUUID(),
    company_id: companyId,
    monitor_id: monitorId,
    incident_id: incidentId,
    cause,
    type: draft.type,
    severity: draft.severity,
    title: draft.title.slice(0, 300),
    message: draft.message,
    dedupe_key: draft.dedupeKey.slice(0, 200),
    created_at: now,
  });
  if (!kept || !incidentId || (await repo.countOf(incidentId)) !== 1) return { kind: 'merged' };
  const incident = await tellingIncident(tx, companyId, incidentId, monitorId);
  return incident ? { kind: 'first', incident, draft } : { kind: 'merged' };
}

/** The signal as the draft it was kept from, pointing at the incident whose thread holds it. */
function draftOf(s: IncidentSignalRow, incidentId: string): NotificationDraft {
  return {
    type: s.type as NotificationType,
    severity: s.severity as AlertSeverity,
    title: s.title,
    message: s.message,
    details: null,
    metadata: { monitor_id: s.monitor_id, incident_id: incidentId, related_signal: true },
    actionUrl: `/monitors/incidents/${incidentId}`,
    dedupeKey: s.dedupe_key,
  };
}

/**
 * An incident opened by a monitor's failure takes in the signals held while the failure was
 * confirmed; answers the first of them, for those the incident's notification does not reach.
 */
export async function adoptHeldSignals(tx: DbScope, companyId: string, draft: NotificationDraft, now: number): Promise<RelatedSignal> {
  const monitorId = monitorOf(draft);
  const incidentId = typeof draft.metadata.incident_id === 'string' ? draft.metadata.incident_id : null;
  if (draft.type !== 'monitor_incident' || draft.metadata.event !== 'opened' || !monitorId || !incidentId) return { kind: 'unrelated' };
  const repo = incidentSignalsRepo(tx);
  const cause = await repo.failureCauseOf(companyId, monitorId);
  if (!cause) return { kind: 'unrelated' };
  await repo.adopt({ companyId, monitorId, cause, since: now - HOLD_MS }, incidentId);
  const [first] = await repo.ofIncident(incidentId);
  const incident = first && (await tellingIncident(tx, companyId, incidentId, monitorId));
  return incident ? { kind: 'first', incident, draft: draftOf(first, incidentId) } : { kind: 'unrelated' };
}

/** Whether the channel took the incident's opening (its events, monitors and minimum severity). */
export function channelTookIncident(c: AlertChannelRow, incident: TellingIncident): boolean {
  return channelTakes(
    {
      events: JSON.parse(c.events),
      monitorIds: c.monitor_ids ? JSON.parse(c.monitor_ids) : null,
      minSeverity: c.min_severity as AlertSeverity,
    },
    { event: 'incident.opened', severity: incident.severity, monitorId: incident.monitorId },
  );
}
