// Texts of the notifications the engine creates: pure, so their wording is tested in one place.
import type { NotificationsTable } from '../db/schema/identity.ts';
import type { Insertable } from 'kysely';
import { formatDuration } from '../../lib/duration.ts';

export interface NotificationDraft {
  type: 'monitor_incident' | 'ssl_warning' | 'dns_warning';
  severity: 'critical' | 'high' | 'medium' | 'low' | 'info';
  title: string;
  message: string;
  details: string | null;
  metadata: Record<string, unknown>;
  /** A console route that exists for every role that gets the notification: the monitors
   *  screen, told which monitor or incident to open (its detail views read the query). */
  actionUrl: string;
  /** Same key for the same event: creating it twice (a retry after a crash) is a no-op */
  dedupeKey: string;
}

// The automatic incident's updates are public when the monitor is: they never carry the
// checker's error (a target's words, internal addresses); company users find it in the check history.
export const incidentOpenedUpdate = (monitorName: string): string => `${monitorName} is not responding as expected.`;
export const incidentResolvedUpdate = (monitorName: string): string => `${monitorName} is back up.`;

export function incidentOpened(m: { id: string; name: string }, incident: { id: string; severity: 'critical' | 'high' }, error: string | null): NotificationDraft {
  return {
    type: 'monitor_incident', severity: incident.severity, title: `${m.name} is down`,
    message: error ? `${m.name} is down: ${error}` : `${m.name} is down.`, details: error,
    metadata: { monitor_id: m.id, incident_id: incident.id, event: 'opened' },
    actionUrl: `/monitors?incident=${incident.id}`, dedupeKey: `incident:${incident.id}:opened`,
  };
}

export function incidentResolved(m: { id: string; name: string }, incidentId: string, downForMs: number): NotificationDraft {
  return {
    type: 'monitor_incident', severity: 'info', title: `${m.name} is back up`,
    message: `${m.name} recovered after ${formatDuration(downForMs)} down.`, details: null,
    metadata: { monitor_id: m.id, incident_id: incidentId, event: 'resolved' },
    actionUrl: `/monitors?incident=${incidentId}`, dedupeKey: `incident:${incidentId}:resolved`,
  };
}

export function sslExpiring(m: { id: string; name: string }, expiresAt: number, daysLeft: number, threshold: number): NotificationDraft {
  return {
    type: 'ssl_warning', severity: threshold <= 7 ? 'high' : threshold <= 14 ? 'medium' : 'low',
    title: `Certificate of ${m.name} expires in ${daysLeft} day${daysLeft === 1 ? '' : 's'}`,
    message: `The certificate expires on ${new Date(expiresAt).toISOString().slice(0, 10)}. Renew it before then.`, details: null,
    metadata: { monitor_id: m.id, expires_at: new Date(expiresAt).toISOString(), days_left: daysLeft, threshold },
    actionUrl: `/monitors?monitor=${m.id}`, dedupeKey: `ssl:${m.id}:${expiresAt}:${threshold}`,
  };
}

export function sslInvalid(m: { id: string; name: string }, problem: string, dayStart: number): NotificationDraft {
  return {
    type: 'ssl_warning', severity: 'high', title: `Certificate of ${m.name} is invalid`, message: problem, details: null,
    metadata: { monitor_id: m.id, problem }, actionUrl: `/monitors?monitor=${m.id}`, dedupeKey: `ssl:${m.id}:invalid:${dayStart}`,
  };
}

export function dnsFailing(m: { id: string; name: string }, error: string, since: number): NotificationDraft {
  return {
    type: 'dns_warning', severity: 'high', title: `DNS check of ${m.name} is failing`, message: error, details: null,
    metadata: { monitor_id: m.id }, actionUrl: `/monitors?monitor=${m.id}`, dedupeKey: `dns:${m.id}:failing:${since}`,
  };
}

export function dnsChanged(m: { id: string; name: string }, before: string[], after: string[], at: number): NotificationDraft {
  return {
    type: 'dns_warning', severity: 'medium', title: `DNS answers of ${m.name} changed`,
    message: `Was ${before.join(', ') || 'empty'}; now ${after.join(', ') || 'empty'}.`, details: null,
    metadata: { monitor_id: m.id, before, after }, actionUrl: `/monitors?monitor=${m.id}`, dedupeKey: `dns:${m.id}:changed:${at}`,
  };
}

export function toRows(d: NotificationDraft, companyId: string, userIds: string[], now: number, newId: () => string): Insertable<NotificationsTable>[] {
  return userIds.map((userId) => ({
    id: newId(), company_id: companyId, user_id: userId, title: d.title.slice(0, 300), message: d.message, details: d.details,
    metadata: JSON.stringify(d.metadata), severity: d.severity, type: d.type, is_read: 0, action_url: d.actionUrl,
    dedupe_key: d.dedupeKey.slice(0, 200), created_at: now,
  }));
}
