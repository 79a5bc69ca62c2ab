// SQL for what the evidence panel reads besides check history (domain/incidents/evidence/):
// the DNS change warnings already sent, the spans that name a host, the versions a service
// reported, and a monitor's maintenance windows. Each read is bounded by time and rows.
import type { Selectable } from 'kysely';
import type { DbScope } from '../scope.ts';
import type { MaintenanceWindowsTable } from '../schema/monitoring.ts';

export interface DnsChangeNotice {
  dedupe_key: string;
  title: string;
  message: string;
  metadata: string | null;
  created_at: number;
}

export interface HostSpan {
  service: string;
  kind: number;
  start_us: number;
  duration_ms: number;
  is_error: boolean;
  error_message: string | null;
  trace_id: string;
  attributes: string;
}

export function evidenceSourcesRepo(db: DbScope) {
  const k = db.k;
  return {
    /**
     * The company's "DNS answers/records changed" warnings created in [from, to], one per event
     * (each user got a copy with the same dedupe key): dns monitors ('dns:<id>:changed:<t>') and
     * domain checks ('domain:<id>:changed:<t>').
     */
    async dnsChangeNotices(companyId: string, from: number, to: number): Promise<DnsChangeNotice[]> {
      const rows = await k
        .selectFrom('notifications')
        .select(['dedupe_key', 'title', 'message', 'metadata', 'created_at'])
        .where('company_id', '=', companyId)
        .where('type', '=', 'dns_warning')
        .where('created_at', '>=', from)
        .where('created_at', '<=', to)
        .where((eb) => eb.or([eb('dedupe_key', 'like', 'dns:%:changed:%'), eb('dedupe_key', 'like', 'domain:%:changed:%')]))
        .orderBy('created_at', 'desc')
        .limit(500)
        .execute();
      const seen = new Map<string, DnsChangeNotice>();
      for (const r of rows)
        if (r.dedupe_key && !seen.has(r.dedupe_key))
          seen.set(r.dedupe_key, { ...r, dedupe_key: r.dedupe_key, created_at: Number(r.created_at) });
      return [...seen.values()];
    },

    /** A company's monitors by id: their type and config (which host a dns monitor asks about). */
    monitorsByIds(companyId: string, ids: string[]): Promise<Array<{ id: string; type: string; config: string }>> {
      if (ids.length === 0) return Promise.resolve([]);
      return k.selectFrom('monitors').select(['id', 'type', 'config']).where('company_id', '=', companyId).where('id', 'in', ids).execute();
    },

    /**
     * The company's spans started in [fromUs, toUs] whose attributes name `host` as the server
     * (server.address, net.peer.name, http.host) or in a URL (url.full, http.url), newest first.
     */
    async spansNamingHost(companyId: string, host: string, fromUs: number, toUs: number, limit: number): Promise<HostSpan[]> {
      // A host holds no '%'; a '_' (allowed in DNS names) matches any one character here, so the
      // caller checks the attribute's host exactly (the query only narrows).
      const h = host;
      const patterns = [
        `%"server.address":"${h}"%`,
        `%"net.peer.name":"${h}"%`,
        `%"http.host":"${h}"%`,
        `%"http.host":"${h}:%`,
        `%://${h}/%`,
        `%://${h}:%`,
        `%://${h}"%`,
      ];
      const rows = await k
        .selectFrom('spans')
        .select(['service', 'kind', 'start_us', 'duration_ms', 'is_error', 'error_message', 'trace_id', 'attributes'])
        .where('company_id', '=', companyId)
        .where('start_us', '>=', fromUs)
        .where('start_us', '<=', toUs)
        .where((eb) => eb.or(patterns.map((p) => eb('attributes', 'like', p))))
        .orderBy('start_us', 'desc')
        .limit(limit)
        .execute();
      return rows.map((r) => ({ ...r, start_us: Number(r.start_us), duration_ms: Number(r.duration_ms), is_error: Boolean(r.is_error) }));
    },

    /**
     * The earliest span of each (service, version) among these services' spans started in
     * [fromUs, toUs] that carry a service.version (ingest copies it from the resource).
     */
    async versionsFirstSeen(
      companyId: string,
      services: string[],
      fromUs: number,
      toUs: number,
    ): Promise<Array<{ service: string; version: string; first_us: number }>> {
      if (services.length === 0) return [];
      const rows = await k
        .selectFrom('spans')
        .select(['service', 'start_us', 'attributes'])
        .where('company_id', '=', companyId)
        .where('service', 'in', services)
        .where('start_us', '>=', fromUs)
        .where('start_us', '<=', toUs)
        .where('attributes', 'like', '%"service.version":%')
        .orderBy('start_us')
        .limit(20_000)
        .execute();
      const first = new Map<string, { service: string; version: string; first_us: number }>();
      for (const r of rows) {
        let version: unknown;
        try {
          version = (JSON.parse(r.attributes) as Record<string, unknown>)['service.version'];
        } catch {
          continue;
        }
        if (typeof version !== 'string' || version === '') continue;
        const key = `${r.service}\n${version}`;
        if (!first.has(key)) first.set(key, { service: r.service, version, first_us: Number(r.start_us) });
      }
      return [...first.values()];
    },

    /** The company's windows that cover the monitor (or every monitor) and may have run before `to`. */
    async maintenanceOfMonitor(
      companyId: string,
      monitorId: string,
      from: number,
      to: number,
    ): Promise<Array<Selectable<MaintenanceWindowsTable>>> {
      return k
        .selectFrom('maintenance_windows')
        .selectAll()
        .where('company_id', '=', companyId)
        .where('starts_at', '<=', to)
        .where((eb) => eb.or([eb('ends_at', '>=', from), eb('recurrence', 'is not', null)]))
        .where((eb) =>
          eb.or([
            eb('monitor_id', '=', monitorId),
            eb.exists(
              eb
                .selectFrom('maintenance_monitors')
                .select('maintenance_monitors.monitor_id')
                .whereRef('maintenance_monitors.window_id', '=', 'maintenance_windows.id')
                .where('maintenance_monitors.monitor_id', '=', monitorId),
            ),
            eb.and([
              eb('monitor_id', 'is', null),
              eb.not(
                eb.exists(
                  eb
                    .selectFrom('maintenance_monitors')
                    .select('maintenance_monitors.monitor_id')
                    .whereRef('maintenance_monitors.window_id', '=', 'maintenance_windows.id'),
                ),
              ),
            ]),
          ]),
        )
        .orderBy('starts_at', 'desc')
        .limit(50)
        .execute();
    },
  };
}
