import { afterAll, describe, expect, it } from 'vitest';
import type { Kysely } from 'kysely';
import type { Db } from '../../../src/server/db/connect.ts';
import { migrateToLatest } from '../../../src/server/db/migrate.ts';
import { endpointsRepo } from '../../../src/server/db/repositories/endpoints-repo.ts';
import { endpointRollupsOf } from '../../../src/server/telemetry/endpoint-rollups.ts';
import { DB_KINDS, dbWithMigrations } from '../../support/test-db.ts';

const HOUR = 3_600_000;
const T0 = 1_700_000_000_000 - (1_700_000_000_000 % HOUR);

let seq = 0;
function stored(over: Record<string, unknown>) {
  seq++;
  return {
    company_id: 'c1',
    trace_id: seq.toString(16).padStart(32, 'a'),
    span_id: seq.toString(16).padStart(16, '0'),
    parent_span_id: null,
    name: 'GET',
    service: 'shop',
    kind: 2,
    start_us: T0 * 1000,
    duration_ms: 10,
    status_code: 0,
    http_status: 200,
    is_error: false,
    is_request: true,
    error_message: null,
    attributes: '{}',
    events: '[]',
    ...over,
  };
}

describe.each(DB_KINDS)('the API endpoints migration on %s', (kind) => {
  let db: Db;
  afterAll(async () => {
    await db?.close();
  });

  it('rolls up the request spans already stored', async () => {
    db = await dbWithMigrations(kind, (f) => f < '0204');
    const k = db.k as unknown as Kysely<any>;
    const users = (i: number, over: Record<string, unknown> = {}) =>
      stored({
        start_us: (T0 + i * 90_000) * 1000,
        duration_ms: 10 + i,
        attributes: JSON.stringify({ 'http.request.method': 'GET', 'url.path': `/users/${i}` }),
        ...over,
      });
    await k
      .insertInto('spans')
      .values([
        // Two hours of GET /users/{id}: 40 in the first (the last one 503), 1 in the second.
        ...Array.from({ length: 40 }, (_, i) => users(i, i === 39 ? { http_status: 503, is_error: true } : {})),
        users(45),
        // Named by its route; a child span and a span without an HTTP method are not endpoints.
        stored({
          start_us: (T0 + 5 * HOUR) * 1000,
          attributes: '{"http.method":"POST","http.route":"/pay","http.status_code":201}',
          http_status: 201,
        }),
        stored({ parent_span_id: 'f'.repeat(16), kind: 3, is_request: false, attributes: '{"http.request.method":"GET","url.path":"/x"}' }),
        stored({ attributes: '{"job":"nightly"}' }),
        stored({ company_id: 'c2', start_us: (T0 + HOUR) * 1000, attributes: '{"http.request.method":"GET","http.route":"/other"}' }),
      ])
      .execute();

    expect(await migrateToLatest(db)).toContain('0204_telemetry_api_endpoints');
    const repo = endpointsRepo(db);
    const all = await repo.totals({ companyId: 'c1', fromMs: T0, toMs: T0 + 6 * HOUR, limit: 10 }, { codes: true });
    expect(all.map((e) => [e.service, e.method, e.route, e.requests, e.errors])).toEqual([
      ['shop', 'GET', '/users/{id}', 41, 1],
      ['shop', 'POST', '/pay', 1, 0],
    ]);
    expect(all[0].classes).toEqual({ '2xx': 40, '3xx': 0, '4xx': 0, '5xx': 1 });
    expect(all[0].codes.top(5)).toEqual([
      { code: 200, count: 40 },
      { code: 503, count: 1 },
    ]);
    expect(all[0].sketch.total).toBe(41);
    expect(all[0].sketch.quantile(1) / 55).toBeCloseTo(1, 1);
    // The minutes hold the same as the hours.
    const minutes = await repo.totals({ companyId: 'c1', fromMs: T0 + 60_000, toMs: T0 + 6 * HOUR - 60_000, limit: 10 }, { codes: false });
    expect(minutes.map((e) => e.requests)).toEqual([40, 1]); // the first minute (one request) left out
    // Whole UTC days are read from the daily rows, summed from the hours.
    const day = T0 - (T0 % (24 * HOUR));
    const days = await repo.totals({ companyId: 'c1', fromMs: day, toMs: day + 2 * 24 * HOUR, limit: 10 }, { codes: true });
    expect(days.map((e) => [e.route, e.requests, e.errors, e.classes['5xx'], e.sketch.total])).toEqual([
      ['/users/{id}', 41, 1, 1, 41],
      ['/pay', 1, 0, 0, 1],
    ]);
    const seen = await repo.firstSeen(null);
    expect([...seen.values()].sort()).toEqual([T0, T0 + HOUR, T0 + 5 * HOUR].sort());

    // New spans add to the migrated hour and keep the first sighting.
    await repo.add(
      endpointRollupsOf('c1', [
        {
          service: 'shop',
          start_us: (T0 + 30 * 60_000) * 1000,
          duration_ms: 7,
          is_error: false,
          is_request: true,
          http_status: 404,
          attributes: '{"http.request.method":"GET","url.path":"/users/99"}',
        },
      ]),
    );
    const after = await repo.totals({ companyId: 'c1', fromMs: T0, toMs: T0 + HOUR, limit: 10 }, { codes: true });
    expect(after[0]).toMatchObject({ route: '/users/{id}', requests: 41, classes: { '2xx': 39, '3xx': 0, '4xx': 1, '5xx': 1 } });
    expect((await repo.firstSeen('c1')).size).toBe(2);
  });
});
