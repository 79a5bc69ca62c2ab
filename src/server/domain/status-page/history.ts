// The public pages beside the status page, on each company host: /history (every public
// incident and maintenance, month by month), /incidents/{id} (one incident's whole timeline and
// postmortem) and /uptime (a calendar of daily bars per public component for 3, 6 or 12 months).
// Each is built from the company's snapshot (same public monitors and names, same caching: a
// change to the page's data makes a new snapshot) and its data is kept with that snapshot.
import { createHash } from 'node:crypto';
import type { Services } from '../context.ts';
import { statusPageRepo, type MaintenanceRow } from '../../db/repositories/status-page-repo.ts';
import type { MaintenanceView, StatusPageView } from '../../../lib/status.ts';
import {
  monthAfter,
  monthBefore,
  monthOf,
  parseMonth,
  type HistoryPageLookup,
  type HistoryView,
  type MonthRef,
  type UptimeView,
} from '../../../lib/status-history.ts';
import { calendarStart, calendarUptime, uptimeCalendar, uptimeRange } from '../../../lib/uptime-calendar.ts';
import type { IncidentView } from '../../../lib/status.ts';
import { isActiveAt } from '../../../lib/maintenance.ts';
import { classifyHost, hostName } from '../../../lib/hosts.ts';
import { lookupStatusPage } from './service.ts';
import { counts, groupBy, incidentViewsOf } from './view.ts';

const ID = /^[A-Za-z0-9_-]{1,64}$/;

/** The page's own validator: its snapshot's and which page it is. */
function pageEtag(view: StatusPageView, key: string): string {
  return `"h-${createHash('sha256').update(`${view.etag}|${key}`).digest('base64url').slice(0, 22)}"`;
}

const publicNames = (view: StatusPageView) => new Map(view.monitors.map((m) => [m.id, m.name]));
/** The company's versions of each shown monitor's public name per language */
const nameTranslations = (view: StatusPageView) => new Map(view.monitors.map((m) => [m.id, { ...m.nameTranslations }]));

async function lookupExtra<T>(
  services: Services,
  subdomain: string,
  key: string,
  build: (view: StatusPageView) => Promise<T | null>,
): Promise<HistoryPageLookup<T>> {
  let found;
  try {
    found = await lookupStatusPage(services, subdomain);
  } catch {
    return { kind: 'unavailable' };
  }
  if (found.kind !== 'ok') return { kind: 'not_found' };
  const view = found.view;
  let data: T | null;
  try {
    data = await services.state.statusPageCache.extra(subdomain, view.etag, key, () => build(view));
  } catch {
    return { kind: 'unavailable' };
  }
  return data === null ? { kind: 'missing', view } : { kind: 'ok', view, data, etag: pageEtag(view, key) };
}

function maintenanceViewOf(w: MaintenanceRow, names: Map<string, string>, now: number): MaintenanceView {
  return {
    id: w.id,
    title: w.title,
    description: w.description,
    startsAt: Number(w.starts_at),
    endsAt: Number(w.ends_at),
    createdAt: Number(w.created_at),
    updatedAt: Number(w.updated_at ?? w.created_at),
    monitors: (w.monitor_ids ?? []).flatMap((id) => (names.has(id) ? [{ id, name: names.get(id)! }] : [])),
    active: isActiveAt({ starts_at: Number(w.starts_at), ends_at: Number(w.ends_at), recurrence: null }, now),
  };
}

/** A page of the company whose host this is ('not_found' on the main host or off the product domain). */
export function onTenantHost<T>(
  services: Services,
  hostHeader: string,
  page: (subdomain: string) => Promise<HistoryPageLookup<T>>,
): Promise<HistoryPageLookup<T>> {
  const host = classifyHost(hostName(hostHeader), services.config.productDomain);
  return host.kind === 'tenant' ? page(host.subdomain) : Promise.resolve({ kind: 'not_found' });
}

/** The cache key of a history month (an unknown or future `month` means the current one). */
export function historyKey(now: number, rawMonth: string | null): MonthRef {
  const current = monthOf(now);
  const asked = parseMonth(rawMonth);
  return asked && asked.start <= current.start ? asked : current;
}

export function getHistoryPage(services: Services, subdomain: string, rawMonth: string | null): Promise<HistoryPageLookup<HistoryView>> {
  const month = historyKey(services.now(), rawMonth);
  return lookupExtra(services, subdomain, `history:${month.key}`, async (view) => {
    const repo = statusPageRepo(services.db);
    const companyId = view.company.id;
    const [incidents, windows, first] = await Promise.all([
      repo.publicIncidentsStartedBetween(companyId, month.start, month.end),
      repo.publicMaintenanceStartedBetween(companyId, month.start, month.end),
      repo.firstPublicEvent(companyId),
    ]);
    const updates = await repo.incidentUpdates(
      companyId,
      incidents.map((i) => i.id),
    );
    const names = publicNames(view);
    const current = monthOf(view.generatedAt);
    const earliest = monthOf(first ?? view.generatedAt);
    return {
      month,
      previous: month.start > earliest.start ? monthBefore(month) : null,
      next: month.start < current.start ? monthAfter(month) : null,
      incidents: incidentViewsOf(
        incidents,
        groupBy(updates, (u) => u.incident_id),
        names,
        nameTranslations(view),
      ),
      maintenance: windows.map((w) => maintenanceViewOf(w, names, view.generatedAt)),
    };
  });
}

export function getIncidentPage(services: Services, subdomain: string, id: string): Promise<HistoryPageLookup<IncidentView>> {
  // a malformed id is a missing incident of an existing page (asked nothing of the database)
  return lookupExtra(services, subdomain, ID.test(id) ? `incident:${id}` : 'incident:', async (view) => {
    if (!ID.test(id)) return null;
    const repo = statusPageRepo(services.db);
    const row = await repo.publicIncident(view.company.id, id);
    if (!row) return null;
    const updates = await repo.incidentUpdates(view.company.id, [row.id]);
    return (
      incidentViewsOf(
        [row],
        groupBy(updates, (u) => u.incident_id),
        publicNames(view),
        nameTranslations(view),
      )[0] ?? null
    );
  });
}

export function getUptimePage(services: Services, subdomain: string, rawMonths: string | null): Promise<HistoryPageLookup<UptimeView>> {
  const months = uptimeRange(rawMonths);
  return lookupExtra(services, subdomain, `uptime:${months}`, async (view) => {
    const now = view.generatedAt;
    const ids = view.monitors.map((m) => m.id);
    const rows = await statusPageRepo(services.db).dailyRollups(view.company.id, ids, calendarStart(now, months));
    const byMonitor = groupBy(
      rows.map((r) => ({ id: r.monitor_id, c: counts(r) })),
      (r) => r.id,
    );
    const groupName = new Map(view.groups.map((g) => [g.id, g.name]));
    return {
      months,
      components: view.monitors.map((m) => {
        const daily = (byMonitor.get(m.id) ?? []).map((r) => r.c);
        return {
          id: m.id,
          name: m.name,
          group: m.groupId === null ? null : (groupName.get(m.groupId) ?? null),
          uptime: calendarUptime(daily, now, months),
          calendar: uptimeCalendar(daily, now, months),
        };
      }),
    };
  });
}
