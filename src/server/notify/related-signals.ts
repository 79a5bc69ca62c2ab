// One cause, one notification: a warning about a monitor whose latest check failed for the same
// cause (a certificate the check refused: "Certificate … is invalid", the TLS analysis's
// "TLS problem …" and its expiry warnings) is not sent on its own. It goes into the thread of
// the monitor's open incident, whose own notification already told everyone; while the failure
// is still being confirmed it is held, and the incident the failure opens takes it in. A
// warning about another cause (an expiring certificate while the site answers 500) is sent.
import { randomUUID } from 'node:crypto';
import { incidentSignalsRepo } from '../db/repositories/incident-signals-repo.ts';
import type { NotificationType } from '../db/repositories/notifications-repo.ts';
import type { DbScope } from '../db/scope.ts';
import type { FailureCause } from '../engine/failure-cause.ts';
import type { NotificationDraft } from './draft.ts';

/** The failure cause each kind of warning is about; kinds not listed are never merged. */
const CAUSE_OF_TYPE: Partial<Record<NotificationType, FailureCause>> = {
  ssl_warning: 'certificate',
};

/** How long a held signal waits for its incident (confirming a failure takes minutes). */
export const HOLD_MS = 24 * 3_600_000;

const monitorOf = (d: NotificationDraft) => (typeof d.metadata.monitor_id === 'string' ? d.metadata.monitor_id : null);

/**
 * Keeps the draft in its incident's thread (or holds it for the incident to come) when it is
 * about the cause the monitor is failing for; answers whether it did (then nothing is sent).
 */
export async function mergeRelatedSignal(tx: DbScope, companyId: string, draft: NotificationDraft, now: number): Promise<boolean> {
  const cause = CAUSE_OF_TYPE[draft.type];
  const monitorId = monitorOf(draft);
  if (!cause || !monitorId) return false;
  const repo = incidentSignalsRepo(tx);
  if ((await repo.failureCauseOf(companyId, monitorId)) !== cause) return false;
  const incidentId = (await repo.openIncidentOf(companyId, monitorId)) ?? null;
  await repo.insertIdempotent({
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
  return true;
}

/** An incident opened by a monitor's failure takes in the signals held while it was confirmed. */
export async function adoptHeldSignals(tx: DbScope, companyId: string, draft: NotificationDraft, now: number): Promise<void> {
  const monitorId = monitorOf(draft);
  const incidentId = typeof draft.metadata.incident_id === 'string' ? draft.metadata.incident_id : null;
  if (draft.type !== 'monitor_incident' || draft.metadata.event !== 'opened' || !monitorId || !incidentId) return;
  const repo = incidentSignalsRepo(tx);
  const cause = await repo.failureCauseOf(companyId, monitorId);
  if (cause) await repo.adopt({ companyId, monitorId, cause, since: now - HOLD_MS }, incidentId);
}
