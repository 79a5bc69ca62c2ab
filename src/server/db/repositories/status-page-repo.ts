// Read-only SQL of the public status pages: a company by subdomain with a cheap change
// fingerprint, its public monitors, their rollups, public incidents and maintenance windows.
// Private monitors are filtered here, in SQL, so nothing above can leak them by mistake.
import { createHash } from 'node:crypto';
import { sql } from 'kysely';
import type { DbScope } from '../scope.ts';
import { asBoolean } from '../booleans.ts';
import { ROLLUP_START, rollupsWithMonitors, type RollupGrain } from './rollups-repo.ts';

export interface StatusCompanyRow {
  id: string;
  name: string;
  subdomain: string;
  is_active: boolean;
  status: string;
  primary_color: string;
  secondary_color: string;
  logo_base64: string | null;
  horizontal_logo_base64: string | null;
  /** the public pages' languages and time zone (migration 0303) */
  default_language: string;
  status_page_languages: string | null;
  status_page_time_zone: string | null;
  /** change fingerprint of everything the public page shows (see fingerprint()) */
  fingerprint: string;
  /**
   * The part of the fingerprint that checks do not move: all but the shown monitors' digest and
   * last check minute. While it holds, incidents, updates, windows, groups and flags are unchanged.
   */
  eventsKey: string;
}

export interface PublicMonitorRow {
  id: string;
  name: string;
  type: string;
  config: string;
  is_paused: boolean;
  /** Its outage alone is a major outage of the page (migration 0116) */
  is_critical: boolean;
  status: string;
  status_since: number | null;
  last_checked_at: number | null;
  last_response_time_ms: number | null;
  last_http_code: number | null;
  public_name: string | null;
  /** Its public name per language, JSON (migration 0306) */
  public_name_translations: string | null;
  public_position: number | null;
  public_group_id: string | null;
  /** The page shows its response time per location (migration 0123) */
  public_locations: boolean;
  created_at: number;
  /** The page draws its response-time chart (migration 0312) */
  public_response_chart: boolean;
  updated_at: number;
}

/** A shown monitor's latest result from one of its locations (monitor_location_states). */
export interface PublicLocationRow {
  monitor_id: string;
  location: number;
  /** null: local (no row) or a deleted location */
  name: string | null;
  last_status: string | null;
  last_response_time_ms: number | null;
}

export interface PublicGroupRow {
  id: string;
  name: string;
  /** Its name per language, JSON (migration 0306) */
  name_translations: string | null;
  position: number;
  created_at: number;
  updated_at: number;
}

export interface RollupRow {
  monitor_id: string;
  start: number;
  checks: number;
  failures: number;
  degraded: number;
  maintenance: number;
  last_http_code: number | null;
}

export interface IncidentRow {
  id: string;
  monitor_id: string | null;
  /** Its public monitors (filled by publicIncidents; empty: about the whole company) */
  monitor_ids?: string[];
  title: string;
  severity: string;
  status: string;
  started_at: number;
  resolved_at: number | null;
  /** null: opened by the check engine (its title names the monitor) */
  created_by: string | null;
  created_at: number;
  updated_at: number;
  postmortem: string | null;
  /** An incoming alert's incident: the impact its components show while it is open (migration 0530) */
  marks_impact: string | null;
  /** The title per language, JSON (migration 0306) */
  title_translations: string | null;
}

export interface IncidentUpdateRow {
  id: string;
  incident_id: string;
  status: string;
  message: string;
  /** The message per language, JSON (migration 0306) */
  message_translations: string | null;
  /** null: written by the check engine */
  created_by: string | null;
  created_at: number;
}

export interface MaintenanceRow {
  id: string;
  monitor_id: string | null;
  /** Its public monitors (filled by publicMaintenance; empty: every monitor of the company) */
  monitor_ids?: string[];
  title: string;
  description: string | null;
  starts_at: number;
  ends_at: number;
  created_at: number;
  updated_at: number | null;
  recurrence: string | null;
}

const num = (v: unknown): number => (v == null ? 0 : Number(v));

/**
 * The page shows each monitor's last check time to the minute ("2026-11-24 14:05 UTC") and the
 * response time of that check. Every check writes both (and monitors.updated_at), about once a
 * second for 20 monitors at 20 s: counting them exactly would make each check a new page, one
 * render and a cold CDN copy per second. They count by the minute of the latest check instead:
 * the per-check figures refresh at most once a minute, everything else a check can change (status,
 * HTTP code) and every edit changes the page at once.
 */
export const CHECK_TIMES_RESOLUTION_MS = 60_000;

// The fingerprint counts only what the page shows: a private incident or a window on private
// monitors must not change the public ETag (a poller could time what happens behind the page).
// An incident or window is shown when it is about the whole company or about at least one
// public monitor that is not archived.
const SHOWN_MONITOR = sql`pm.is_public = 1 and pm.archived_at is null`;
// Its monitors are the linked ones and monitor_id (rows written with monitor_id alone count too).
const PUBLIC_INCIDENT = sql`i.is_public = 1 and ((i.monitor_id is null and not exists (select 1 from incident_monitors im where im.incident_id = i.id))
  or exists (select 1 from monitors pm where (pm.id = i.monitor_id or pm.id in (select im.monitor_id from incident_monitors im where im.incident_id = i.id)) and ${SHOWN_MONITOR}))`;
const PUBLIC_WINDOW = sql`w.cancelled_at is null and ((w.monitor_id is null and not exists (select 1 from maintenance_monitors mm where mm.window_id = w.id))
  or exists (select 1 from monitors pm where (pm.id = w.monitor_id or pm.id in (select mm.monitor_id from maintenance_monitors mm where mm.window_id = w.id)) and ${SHOWN_MONITOR}))`;
const SHOWN = sql`m.is_public = 1 and m.archived_at is null`;
const INCIDENT_COLUMNS = [
  'i.id',
  'i.monitor_id',
  'i.title',
  'i.severity',
  'i.status',
  'i.started_at',
  'i.resolved_at',
  'i.created_by',
  'i.created_at',
  'i.updated_at',
  'i.postmortem',
  'i.marks_impact',
  'i.title_translations',
] as const;
const WINDOW_COLUMNS = [
  'w.id',
  'w.monitor_id',
  'w.title',
  'w.description',
  'w.starts_at',
  'w.ends_at',
  'w.created_at',
  'w.updated_at',
  'w.recurrence',
] as const;

export function statusPageRepo(db: DbScope) {
  const k = db.k;
  /** The shown (public, not archived) monitors of each of these incidents or windows: linked or monitor_id. */
  const shownLinks = async (
    table: 'incident_monitors' | 'maintenance_monitors',
    owner: 'incident_id' | 'window_id',
    companyId: string,
    ids: string[],
  ): Promise<Map<string, string[]>> => {
    const out = new Map<string, string[]>();
    if (ids.length === 0) return out;
    const parent = sql.table(table === 'incident_monitors' ? 'incidents' : 'maintenance_windows');
    const rows = await sql<{ owner: string; monitor_id: string }>`
      select l.owner, l.monitor_id from (
        select ${sql.ref(owner)} as owner, monitor_id from ${sql.table(table)} where company_id = ${companyId} and ${sql.ref(owner)} in (${sql.join(ids)})
        union select id as owner, monitor_id from ${parent} where company_id = ${companyId} and monitor_id is not null and id in (${sql.join(ids)})
      ) l join monitors pm on pm.id = l.monitor_id
      where ${SHOWN_MONITOR}
      order by pm.name, pm.id`.execute(k);
    for (const r of rows.rows) out.set(r.owner, [...(out.get(r.owner) ?? []), r.monitor_id]);
    return out;
  };
  /** The company's public incidents (about the company or a shown monitor), with the columns the pages read. */
  const publicIncidentsOf = (companyId: string) =>
    k.selectFrom('incidents as i').select(INCIDENT_COLUMNS).where('i.company_id', '=', companyId).where(sql<boolean>`${PUBLIC_INCIDENT}`);
  /** The company's public maintenance windows (not cancelled), with the columns the pages read. */
  const publicWindowsOf = (companyId: string) =>
    k
      .selectFrom('maintenance_windows as w')
      .select(WINDOW_COLUMNS)
      .where('w.company_id', '=', companyId)
      .where(sql<boolean>`${PUBLIC_WINDOW}`);
  /** The rows with `monitor_ids` filled from their shown links. */
  const withShownLinks = async <R extends { id: string }>(
    table: 'incident_monitors' | 'maintenance_monitors',
    owner: 'incident_id' | 'window_id',
    companyId: string,
    rows: R[],
  ): Promise<Array<R & { monitor_ids: string[] }>> => {
    const links = await shownLinks(
      table,
      owner,
      companyId,
      rows.map((r) => r.id),
    );
    return rows.map((r) => ({ ...r, monitor_ids: links.get(r.id) ?? [] }));
  };
  const rollups = async (
    grain: RollupGrain,
    companyId: string,
    monitorIds: string[],
    since: number,
    before = Number.MAX_SAFE_INTEGER,
  ): Promise<RollupRow[]> => {
    if (monitorIds.length === 0) return [];
    const start = ROLLUP_START[grain] as 'hour_start';
    return rollupsWithMonitors(db, grain)
      .select(['m.id as monitor_id', `r.${start} as start`, 'r.checks', 'r.failures', 'r.degraded', 'r.maintenance', 'r.last_http_code'])
      .where('m.company_id', '=', companyId)
      .where('m.id', 'in', monitorIds)
      .where(`r.${start}`, '>=', since)
      .where(`r.${start}`, '<', before)
      .execute();
  };
  // The columns of each shown monitor the page displays, apart from the per-check figures
  // (monitors.updated_at moves with every check, so it cannot stand for them). Ordered by id.
  const shownColumns = sql`m.id || '|' || m.name || '|' || coalesce(m.public_name, '') || '|' || coalesce(m.public_name_translations, '') || '|' || m.type || '|' || m.config
    || '|' || cast(m.is_paused as text) || '|' || m.status || '|' || coalesce(cast(m.status_since as text), '')
    || '|' || coalesce(cast(m.public_position as text), '') || '|' || coalesce(m.public_group_id, '')
    || '|' || coalesce(cast(m.last_http_code as text), '') || '|' || cast(m.is_critical as text) || '|' || cast(m.public_locations as text)
    || '|' || cast(m.public_response_chart as text)`;
  const shownDigest =
    db.kind === 'postgres'
      ? sql`(select string_agg(${shownColumns}, chr(10) order by m.id) from monitors m where m.company_id = c.id and ${SHOWN})`
      : sql`(select group_concat(x, char(10)) from (select ${shownColumns} as x from monitors m where m.company_id = c.id and ${SHOWN} order by m.id))`;
  return {
    /**
     * The company of a subdomain plus one fingerprint of the data its public page shows: public
     * monitors (count; what the page shows of each, see shownDigest; the minute of the last check,
     * see CHECK_TIMES_RESOLUTION_MS; a monitor turning private changes the count),
     * incidents, updates, maintenance windows, component groups (a layout save also stamps the
     * monitors it moves or renames), the company row itself, and the feature flags (the page shows
     * the subscribe form while ENABLE_NOTIFICATIONS is on). One statement, so a cached page
     * revalidates with one query.
     */
    async companyBySubdomain(subdomain: string): Promise<StatusCompanyRow | undefined> {
      const r = await sql<Record<string, unknown>>`
        select c.id, c.name, c.subdomain, c.is_active, c.status, c.primary_color, c.secondary_color,
          c.logo_base64, c.horizontal_logo_base64, c.updated_at as c_u,
          c.default_language, c.status_page_languages, c.status_page_time_zone,
          (select count(*) from monitors m where m.company_id = c.id and ${SHOWN}) as m_n,
          ${shownDigest} as m_d,
          (select cast(max(m.last_checked_at) / ${CHECK_TIMES_RESOLUTION_MS} as bigint) from monitors m where m.company_id = c.id and ${SHOWN}) as m_c,
          (select count(*) from incidents i where i.company_id = c.id and ${PUBLIC_INCIDENT}) as i_n,
          (select max(i.updated_at) from incidents i where i.company_id = c.id and ${PUBLIC_INCIDENT}) as i_u,
          (select count(*) from incident_updates u join incidents i on i.id = u.incident_id where u.company_id = c.id and ${PUBLIC_INCIDENT}) as u_n,
          (select max(u.created_at) from incident_updates u join incidents i on i.id = u.incident_id where u.company_id = c.id and ${PUBLIC_INCIDENT}) as u_c,
          (select count(*) from maintenance_windows w where w.company_id = c.id and ${PUBLIC_WINDOW}) as w_n,
          (select max(coalesce(w.updated_at, w.created_at)) from maintenance_windows w where w.company_id = c.id and ${PUBLIC_WINDOW}) as w_c,
          (select max(w.ends_at) + max(w.starts_at) from maintenance_windows w where w.company_id = c.id and ${PUBLIC_WINDOW}) as w_t,
          (select count(*) from status_page_groups g where g.company_id = c.id) as g_n,
          (select max(g.updated_at) from status_page_groups g where g.company_id = c.id) as g_u,
          (select max(f.updated_at) from feature_flags f) as f_u
        from companies c where c.subdomain = ${subdomain.toLowerCase()}`.execute(k);
      const row = r.rows[0];
      if (!row) return undefined;
      const digest = createHash('sha256')
        .update(String(row.m_d ?? ''))
        .digest('base64url')
        .slice(0, 16);
      const events = ['c_u', 'm_n', 'i_n', 'i_u', 'u_n', 'u_c', 'w_n', 'w_c', 'w_t', 'g_n', 'g_u', 'f_u'].map((c) => num(row[c])).join('.');
      const fp = `${digest}.${num(row.m_c)}.${events}`;
      return {
        id: String(row.id),
        name: String(row.name),
        subdomain: String(row.subdomain),
        is_active: asBoolean(row.is_active),
        status: String(row.status),
        primary_color: String(row.primary_color),
        secondary_color: String(row.secondary_color),
        logo_base64: (row.logo_base64 as string | null) ?? null,
        horizontal_logo_base64: (row.horizontal_logo_base64 as string | null) ?? null,
        default_language: String(row.default_language ?? 'en'),
        status_page_languages: (row.status_page_languages as string | null) ?? null,
        status_page_time_zone: (row.status_page_time_zone as string | null) ?? null,
        fingerprint: fp,
        eventsKey: events,
      };
    },

    /** The latest result of each location of these monitors (the ones showing their locations), in location order. */
    publicLocations(companyId: string, monitorIds: string[]): Promise<PublicLocationRow[]> {
      if (monitorIds.length === 0) return Promise.resolve([]);
      return k
        .selectFrom('monitor_location_states as s')
        .leftJoin('probe_locations as l', 'l.num', 's.location')
        .select(['s.monitor_id', 's.location', 'l.name', 's.last_status', 's.last_response_time_ms'])
        .where('s.company_id', '=', companyId)
        .where('s.monitor_id', 'in', monitorIds)
        .orderBy('s.location')
        .execute();
    },

    publicMonitors(companyId: string): Promise<PublicMonitorRow[]> {
      return k
        .selectFrom('monitors')
        .select([
          'id',
          'name',
          'type',
          'config',
          'is_paused',
          'is_critical',
          'status',
          'status_since',
          'last_checked_at',
          'last_response_time_ms',
          'last_http_code',
          'public_name',
          'public_name_translations',
          'public_position',
          'public_group_id',
          'public_locations',
          'created_at',
          'updated_at',
          'public_response_chart',
        ])
        .where('company_id', '=', companyId)
        .where('is_public', '=', true)
        .where('archived_at', 'is', null)
        .orderBy('name')
        .orderBy('id')
        .execute() as Promise<PublicMonitorRow[]>;
    },

    /** The company's component groups in page order. */
    publicGroups(companyId: string): Promise<PublicGroupRow[]> {
      return k
        .selectFrom('status_page_groups')
        .select(['id', 'name', 'name_translations', 'position', 'created_at', 'updated_at'])
        .where('company_id', '=', companyId)
        .orderBy('position')
        .orderBy('id')
        .execute();
    },

    /** Hourly rollups of these monitors with since <= hour_start < before. */
    hourlyRollups: (companyId: string, monitorIds: string[], since: number, before?: number) =>
      rollups('hourly', companyId, monitorIds, since, before),
    /** Daily rollups of these monitors with since <= day_start < before. */
    dailyRollups: (companyId: string, monitorIds: string[], since: number, before?: number) =>
      rollups('daily', companyId, monitorIds, since, before),

    /** Public incidents about the company or a shown monitor: unresolved, or resolved since `since`. */
    async publicIncidents(companyId: string, since: number, limit = 100): Promise<IncidentRow[]> {
      const rows: IncidentRow[] = await publicIncidentsOf(companyId)
        .where((eb) => eb.or([eb('i.resolved_at', 'is', null), eb('i.resolved_at', '>=', since)]))
        .orderBy('i.started_at', 'desc')
        .orderBy('i.id')
        .limit(limit)
        .execute();
      return withShownLinks('incident_monitors', 'incident_id', companyId, rows);
    },

    /** Public incidents that started in [from, to), newest first (the public history's month). */
    async publicIncidentsStartedBetween(companyId: string, from: number, to: number, limit = 500): Promise<IncidentRow[]> {
      const rows: IncidentRow[] = await publicIncidentsOf(companyId)
        .where('i.started_at', '>=', from)
        .where('i.started_at', '<', to)
        .orderBy('i.started_at', 'desc')
        .orderBy('i.id')
        .limit(limit)
        .execute();
      return withShownLinks('incident_monitors', 'incident_id', companyId, rows);
    },

    /** One public incident of the company (undefined when private, unknown or another company's). */
    async publicIncident(companyId: string, id: string): Promise<IncidentRow | undefined> {
      const row: IncidentRow | undefined = await publicIncidentsOf(companyId).where('i.id', '=', id).executeTakeFirst();
      return row && (await withShownLinks('incident_monitors', 'incident_id', companyId, [row]))[0];
    },

    /** Public maintenance windows (not cancelled) that start in [from, to), newest first. */
    async publicMaintenanceStartedBetween(companyId: string, from: number, to: number, limit = 500): Promise<MaintenanceRow[]> {
      const rows: MaintenanceRow[] = await publicWindowsOf(companyId)
        .where('w.starts_at', '>=', from)
        .where('w.starts_at', '<', to)
        .orderBy('w.starts_at', 'desc')
        .orderBy('w.id')
        .limit(limit)
        .execute();
      return withShownLinks('maintenance_monitors', 'window_id', companyId, rows);
    },

    /** When the company's oldest public incident or window started (null: none): where its history begins. */
    async firstPublicEvent(companyId: string): Promise<number | null> {
      const [i, w] = await Promise.all([
        k
          .selectFrom('incidents as i')
          .select((eb) => eb.fn.min('i.started_at').as('t'))
          .where('i.company_id', '=', companyId)
          .where(sql<boolean>`${PUBLIC_INCIDENT}`)
          .executeTakeFirst(),
        k
          .selectFrom('maintenance_windows as w')
          .select((eb) => eb.fn.min('w.starts_at').as('t'))
          .where('w.company_id', '=', companyId)
          .where(sql<boolean>`${PUBLIC_WINDOW}`)
          .executeTakeFirst(),
      ]);
      const times = [i?.t, w?.t].filter((t) => t != null).map(Number);
      return times.length ? Math.min(...times) : null;
    },

    async incidentUpdates(companyId: string, incidentIds: string[]): Promise<IncidentUpdateRow[]> {
      if (incidentIds.length === 0) return [];
      return k
        .selectFrom('incident_updates')
        .select(['id', 'incident_id', 'status', 'message', 'message_translations', 'created_by', 'created_at'])
        .where('company_id', '=', companyId)
        .where('incident_id', 'in', incidentIds)
        .orderBy('created_at', 'desc')
        .orderBy('id')
        .execute();
    },

    /** Maintenance windows for the whole company or a shown monitor, ending after `since` or recurring; not cancelled. */
    async publicMaintenance(companyId: string, since: number, limit = 50): Promise<MaintenanceRow[]> {
      const rows: MaintenanceRow[] = await publicWindowsOf(companyId)
        .where((eb) => eb.or([eb('w.ends_at', '>=', since), eb('w.recurrence', 'is not', null)]))
        .orderBy('w.starts_at')
        .orderBy('w.id')
        .limit(limit)
        .execute();
      return withShownLinks('maintenance_monitors', 'window_id', companyId, rows);
    },
  };
}

export type StatusPageRepo = ReturnType<typeof statusPageRepo>;
