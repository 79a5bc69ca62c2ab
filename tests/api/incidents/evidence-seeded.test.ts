// The evidence modules whose findings need history nobody can script in a test's minute: a
// phase that completes but slowly against its 7-day baseline, a maintenance window that ended
// just before, the locations the engine judged, and an incident where nothing stood out. The
// history is seeded through the repositories, as the engine stores it; both databases.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { IncidentEvidence } from '../../../src/lib/incident-evidence.ts';
import { checksRepo } from '../../../src/server/db/repositories/checks-repo.ts';
import { incidentsRepo } from '../../../src/server/db/repositories/incidents-repo.ts';
import { maintenanceRepo } from '../../../src/server/db/repositories/maintenance-repo.ts';
import { monitorsRepo, newMonitorRow } from '../../../src/server/db/repositories/monitors-repo.ts';
import type { Services } from '../../../src/server/domain/context.ts';
import { getIncidentEvidence } from '../../../src/server/domain/incidents/evidence-service.ts';
import { refreshOpenEvidence } from '../../../src/server/domain/incidents/evidence-refresh.ts';
import { DB_KINDS } from '../../support/test-db.ts';
import { engineServices, seedTenant } from '../engine/support.ts';

const MIN = 60_000;
const DAY = 86_400_000;
const T0 = Date.UTC(2026, 5, 10, 12, 0, 0);

describe.each(DB_KINDS)('incident evidence from seeded history on %s', (kind) => {
  let services: Services;
  let t: Awaited<ReturnType<typeof seedTenant>>;

  beforeAll(async () => {
    services = await engineServices(kind, {}, () => T0);
    t = await seedTenant(services);
  });
  afterAll(async () => services?.db.close());

  const monitor = async (name: string, url: string) => {
    const id = randomUUID();
    await monitorsRepo(services.db).insert(
      newMonitorRow({
        id,
        company_id: t.company.id,
        name,
        type: 'http',
        config: JSON.stringify({ url, method: 'GET' }),
        interval_seconds: 60,
        timeout_seconds: 10,
        next_due_at: T0 + DAY,
        created_at: T0 - 8 * DAY,
      }),
    );
    return id;
  };
  const result = (
    monitorId: string,
    at: number,
    status: 'operational' | 'down',
    timings: Record<string, number>,
    error: string | null = null,
  ) => ({
    monitor_id: monitorId,
    company_id: t.company.id,
    checked_at: at,
    status,
    response_time_ms: timings.total,
    http_code: status === 'down' ? 500 : 200,
    error,
    timings: JSON.stringify(timings),
    cert_expires_at: null,
    location: 0,
  });
  const open = async (monitorId: string, startedAt: number, downWhere: object | null = null) => {
    const id = randomUUID();
    await incidentsRepo(services.db).openForMonitor({
      id,
      company_id: t.company.id,
      monitor_id: monitorId,
      title: 'down',
      severity: 'high',
      status: 'open',
      is_public: false,
      started_at: startedAt,
      resolved_at: null,
      created_by: null,
      created_at: startedAt,
      updated_at: startedAt,
      down_where: downWhere ? JSON.stringify(downWhere) : null,
    });
    return id;
  };
  const evidence = async (incidentId: string): Promise<IncidentEvidence> => {
    await refreshOpenEvidence(services, T0);
    return getIncidentEvidence(t.viewerCtx, incidentId);
  };

  it('a phase that completes but slowly: its median since the start against the p95 of 7 days', async () => {
    const m = await monitor('Slow TLS', 'https://slow.example.test/');
    const baseline = Array.from({ length: 300 }, (_, i) =>
      result(m, T0 - 7 * DAY + 10 * MIN + i * 30 * MIN, 'operational', { dns: 2, connect: 3, tls: 40 + (i % 6), ttfb: 80, total: 90 }),
    );
    // Since 11:55 the handshake takes ~900 ms and the answers are 500s.
    const during = [0, 1, 2].map((i) =>
      result(
        m,
        T0 - 5 * MIN + i * MIN,
        'down',
        { dns: 2, connect: 3, tls: 890 + i * 10, ttfb: 940, total: 950 },
        'HTTP 500 is not an accepted status code',
      ),
    );
    await checksRepo(services.db).insertMany([...baseline, ...during]);
    const e = await evidence(await open(m, T0 - 5 * MIN));
    expect(e.items.map((i) => i.kind)).toEqual(['phase']);
    expect(e.items[0].data).toMatchObject({
      phase: 'tls',
      state: 'slow',
      median_ms: 900,
      baseline_p95_ms: 45,
      baseline_checks: 300,
      ratio: 20,
    });
    expect(e.items[0].summary).toBe('TLS handshake 900 ms since the incident started, baseline 45 ms (p95 of the last 7 days).');
    expect(e.line).toBe('TLS handshake 20× slower than usual');
  });

  it('a maintenance window of the monitor that ended 10 minutes before; not one that ended hours before, nor another monitor’s', async () => {
    const m = await monitor('After maintenance', 'https://after.example.test/');
    const elsewhere = await monitor('Elsewhere', 'https://elsewhere.example.test/');
    const start = T0 - 2 * MIN;
    const window = (title: string, from: number, to: number, monitors: string[]) =>
      maintenanceRepo(services.db).insert(
        {
          id: randomUUID(),
          company_id: t.company.id,
          monitor_id: monitors[0] ?? null,
          title,
          description: null,
          starts_at: from,
          ends_at: to,
          created_at: from - DAY,
          recurrence: null,
          cancelled_at: null,
          updated_at: null,
        },
        monitors,
      );
    await window('Database upgrade', start - 70 * MIN, start - 10 * MIN, [m]);
    await window('Last night', start - 10 * 60 * MIN, start - 8 * 60 * MIN, [m]);
    await window('Other monitor', start - 30 * MIN, start - 5 * MIN, [elsewhere]);
    const e = await evidence(await open(m, start));
    expect(e.items.map((i) => i.kind)).toEqual(['maintenance_ended']);
    expect(e.items[0]).toMatchObject({
      summary: 'Maintenance "Database upgrade" ended 10 min before the incident.',
      source: { href: '/monitors/maintenance' },
      data: { title: 'Database upgrade', minutes_before: 10 },
    });
    expect(e.line).toBe('Maintenance ended 10 min before');
  });

  it('the locations that see it down and up, for a monitor checked from several', async () => {
    const m = await monitor('Everywhere', 'https://everywhere.example.test/');
    const e = await evidence(
      await open(m, T0 - MIN, {
        text: 'from Frankfurt and Virginia, 2 of 3 locations; Singapore sees it up',
        down: ['Frankfurt', 'Virginia'],
        up: ['Singapore'],
        absent: [],
      }),
    );
    expect(e.items.map((i) => i.kind)).toEqual(['locations']);
    expect(e.items[0].summary).toBe('Down from Frankfurt and Virginia, 2 of 3 locations; Singapore sees it up.');
    expect(e.items[0].data).toMatchObject({ down: ['Frankfurt', 'Virginia'], up: ['Singapore'], down_count: 2, locations: 3 });
  });

  it('nothing stood out: an empty panel and no line, updated while the incident runs', async () => {
    const m = await monitor('Quiet', 'https://quiet.example.test/');
    await checksRepo(services.db).insertMany(
      Array.from({ length: 50 }, (_, i) =>
        result(m, T0 - 2 * DAY + i * 30 * MIN, 'operational', { dns: 2, connect: 3, tls: 40, ttfb: 80, total: 90 }),
      ),
    );
    await checksRepo(services.db).insertMany([
      result(m, T0 - MIN, 'down', { dns: 2, connect: 3, tls: 41, ttfb: 82, total: 92 }, 'HTTP 500 is not an accepted status code'),
    ]);
    const id = await open(m, T0 - MIN);
    const e = await evidence(id);
    expect(e).toMatchObject({ incident_id: id, monitor_id: m, items: [], line: '' });
    expect(e.updated_at).toBe(new Date(T0).toISOString());
    // Another company's user gets the incident's 404.
    const other = await seedTenant(services);
    await expect(getIncidentEvidence(other.adminCtx, id)).rejects.toMatchObject({ code: 'not_found' });
  });
});
