// The outbox's write side for status-page subscribers: inside the transaction of a public
// incident update or a maintenance change, one delivery per confirmed subscriber whose component
// choice takes it. Internal incidents, incidents and windows of private monitors, and everything
// while ENABLE_NOTIFICATIONS is off (as stored; the operator's override is checked at send time)
// write nothing.
import { randomUUID } from 'node:crypto';
import type { Insertable } from 'kysely';
import type { AlertDeliveriesTable } from '../../db/schema/alerts.ts';
import type { DbScope } from '../../db/scope.ts';
import { subscribersRepo } from '../../db/repositories/subscribers-repo.ts';
import { subscriberNoticesRepo } from '../../db/repositories/subscriber-notices-repo.ts';
import { RETRY_WINDOW_MS } from './payload.ts';
import { noticeTexts, publicComponents, publicTitle } from './subscriber-names.ts';
import { impactOf } from '../../../lib/status.ts';
import { incidentsRepo } from '../../db/repositories/incidents-repo.ts';
import { maintenanceRepo } from '../../db/repositories/maintenance-repo.ts';
import { subscriberTakes, type SubscriberEvent, type SubscriberNotice } from './subscriber-notice.ts';
import { deliveriesWritten } from './wake.ts';

export type IncidentCause = {
  incidentId: string;
  /** The incident update it reports: one notice per update and subscriber */
  updateId: string;
  event: Extract<SubscriberEvent, `incident.${string}`>;
  /** The public update text and status it reports */
  message: string;
  status: string;
  /** The update text per language as stored (JSON; lib/i18n/company-text.ts), if the company wrote any */
  messageTranslations?: string | null;
};

export type MaintenanceCause = {
  windowId: string;
  event: Extract<SubscriberEvent, `maintenance.${string}`>;
  /** The occurrence it reports (recurring windows have many) */
  startsAt: number;
  endsAt: number;
};

async function notificationsStoredOn(tx: DbScope): Promise<boolean> {
  return (await subscriberNoticesRepo(tx).storedFlag('ENABLE_NOTIFICATIONS')) !== false;
}

export async function enqueueIncidentNotice(tx: DbScope, cause: IncidentCause, now: number): Promise<void> {
  const repo = subscriberNoticesRepo(tx);
  const incident = await repo.incident(cause.incidentId);
  if (!incident?.is_public) return;
  const about = (await incidentsRepo(tx).monitorsOf([incident.id])).get(incident.id) ?? [];
  const components = await publicComponents(
    tx,
    incident.company_id,
    about.map((m) => m.id),
  );
  if (components === 'private') return;
  const texts = noticeTexts(components, { title: incident.title_translations, message: cause.messageTranslations });
  await enqueue(
    tx,
    incident.company_id,
    `incident-update:${cause.updateId}`,
    {
      event: cause.event,
      title: publicTitle(incident, components),
      message: cause.message,
      status: cause.status,
      occurredAt: now,
      components: texts.components,
      incident: { id: incident.id, impact: impactOf(incident.severity) },
      maintenance: null,
      ...(texts.translations ? { translations: texts.translations } : {}),
    },
    now,
  );
}

export async function enqueueMaintenanceNotice(tx: DbScope, cause: MaintenanceCause, now: number): Promise<void> {
  const w = await maintenanceRepo(tx).findById(cause.windowId, null);
  if (!w) return;
  const components = await publicComponents(tx, w.company_id, w.monitor_ids ?? []);
  if (components === 'private') return;
  const texts = noticeTexts(components, {});
  const status =
    cause.event === 'maintenance.scheduled' ? 'scheduled' : cause.event === 'maintenance.started' ? 'in_progress' : 'completed';
  await enqueue(
    tx,
    w.company_id,
    `maintenance:${w.id}:${cause.startsAt}:${cause.event}`,
    {
      event: cause.event,
      title: w.title,
      message: w.description ?? '',
      status,
      occurredAt: now,
      components: texts.components,
      incident: null,
      maintenance: { id: w.id, startsAt: cause.startsAt, endsAt: cause.endsAt },
      ...(texts.translations ? { translations: texts.translations } : {}),
    },
    now,
  );
}

async function enqueue(tx: DbScope, companyId: string, dedupeKey: string, notice: SubscriberNotice, now: number): Promise<void> {
  if (!(await notificationsStoredOn(tx))) return;
  const subscribers = await subscribersRepo(tx).confirmedOf(companyId);
  const rows: Insertable<AlertDeliveriesTable>[] = subscribers
    .filter((s) => subscriberTakes(s.component_ids ? (JSON.parse(s.component_ids) as string[]) : null, notice))
    .map((s) => ({
      id: `msg_${randomUUID().replace(/-/g, '')}`,
      company_id: companyId,
      channel_id: null,
      subscriber_id: s.id,
      event: notice.event,
      dedupe_key: dedupeKey.slice(0, 200),
      payload: JSON.stringify(notice),
      state: 'pending',
      attempts: 0,
      next_attempt_at: now,
      retry_until: now + RETRY_WINDOW_MS,
      lease_holder: null,
      lease_expires_at: null,
      last_error: null,
      created_at: now,
      updated_at: now,
    }));
  if (rows.length > 0) await subscriberNoticesRepo(tx).insertIdempotent(rows);
  deliveriesWritten(tx);
}
