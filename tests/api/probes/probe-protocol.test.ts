// The probe's protocol (issue 27 items 1 and 6), on both databases: which monitors a location's
// probes are assigned (a private location: its company's only; a public one: never another
// company's private location of the same slug), the long poll answering when an assignment
// changes, results stored once however often a batch is sent, results for unassigned monitors
// refused one by one, malformed batches refused whole, a revoked token refused at once, and a
// probe token reading nothing else.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { idsHash } from '../../../src/lib/probe-assignments.ts';
import { inboxDrained, inboxRows } from '../../../src/server/domain/probes/inbox.ts';
import { probeInboxRepo } from '../../../src/server/db/repositories/probe-inbox-repo.ts';
import { probeInbox } from '../../../src/server/jobs/probe-inbox.ts';
import { DB_KINDS } from '../../support/test-db.ts';
import { startTestApp, type TestApp } from '../../support/test-app.ts';
import { ACME, GLOBEX, probeCall, type ProbeWorld, seedLocatedMonitor, seedProbeWorld } from '../../support/probe-fixtures.ts';

const PROBE = { instance: 'rack-1', version: '1.0.0' };

describe.each(DB_KINDS)('the probe protocol on %s', (kind) => {
  let t: TestApp;
  let w: ProbeWorld;
  const clock = Date.parse('2026-11-29T10:00:00Z');
  const m: Record<string, string> = {};

  beforeAll(async () => {
    t = await startTestApp({ db: kind, now: () => clock });
    w = await seedProbeWorld(t);
    for (const token of [w.euWest.token, w.acmeLab.token, w.globexLab.token])
      expect((await probeCall(t, token, 'POST', '/api/v1/probe/hello', PROBE)).status).toBe(200);
    m.acmeEu = await seedLocatedMonitor(t, w.acmeAdmin, ACME, { name: 'acme eu' }, ['local', 'eu-west']);
    m.acmeLab = await seedLocatedMonitor(t, w.acmeAdmin, ACME, { name: 'acme lab' }, ['lab']);
    m.acmeLocal = await seedLocatedMonitor(t, w.acmeAdmin, ACME, { name: 'acme local' }, null);
    m.acmePaused = await seedLocatedMonitor(t, w.acmeAdmin, ACME, { name: 'acme paused' }, ['eu-west', 'lab']);
    expect((await w.acmeAdmin.post(`/api/v1/monitors/${m.acmePaused}/pause`, {}, ACME)).status).toBe(200);
    m.globexBoth = await seedLocatedMonitor(t, w.globexAdmin, GLOBEX, { name: 'globex both' }, ['eu-west', 'lab']);
    m.globexLab = await seedLocatedMonitor(t, w.globexAdmin, GLOBEX, { name: 'globex lab' }, ['lab']);
  });
  afterAll(async () => t?.close());

  const assignments = (token: string, query = '') => probeCall(t, token, 'GET', `/api/v1/probe/assignments${query}`);
  const ids = (body: { monitors: Array<{ id: string }> }) => body.monitors.map((x) => x.id).sort();

  it("assigns a public location the active monitors naming it, and a private one its company's only", async () => {
    const pub = await assignments(w.euWest.token);
    expect(pub.status).toBe(200);
    expect(pub.body).toMatchObject({ changed: true, full: true, count: 2, allow_private_targets: false, removed: [] });
    expect(ids(pub.body)).toEqual([m.acmeEu, m.globexBoth].sort());
    expect(pub.body.ids_hash).toBe(idsHash([m.acmeEu, m.globexBoth]));
    const whole = pub.body.monitors.find((x: { id: string }) => x.id === m.acmeEu);
    expect(whole).toMatchObject({ type: 'http', interval_seconds: 60, config: { url: 'http://example.com/' } });

    const acmeLab = await assignments(w.acmeLab.token);
    expect(ids(acmeLab.body)).toEqual([m.acmeLab]);
    // a private location's probe uses its own operator's ALLOW_PRIVATE_TARGETS
    expect(acmeLab.body.allow_private_targets).toBeNull();
    const globexLab = await assignments(w.globexLab.token);
    expect(ids(globexLab.body)).toEqual([m.globexBoth, m.globexLab].sort());
  });

  it('holds a long poll until an assignment changes, then answers the change; a removal shows in removed and the count', async () => {
    const first = await assignments(w.acmeLab.token);
    const quiet = await assignments(w.acmeLab.token, `?version=${first.body.version}&wait=1`);
    expect(quiet.body).toMatchObject({ changed: false, full: false, monitors: [], removed: [], count: 1 });

    // another company's change does not wake Acme's lab
    const waiting = assignments(w.acmeLab.token, `?version=${quiet.body.version}&wait=30&instance=rack-1`);
    expect((await w.globexAdmin.put(`/api/v1/monitors/${m.globexLab}`, { interval_seconds: 300 }, GLOBEX)).status).toBe(200);
    expect((await w.acmeAdmin.put(`/api/v1/monitors/${m.acmeLab}`, { interval_seconds: 120 }, ACME)).status).toBe(200);
    const woke = await waiting;
    expect(woke.body).toMatchObject({ changed: true, full: false, count: 1, removed: [] });
    expect(woke.body.monitors).toEqual([expect.objectContaining({ id: m.acmeLab, interval_seconds: 120 })]);

    const next = assignments(w.acmeLab.token, `?version=${woke.body.version}&wait=30`);
    expect((await w.acmeAdmin.post(`/api/v1/monitors/${m.acmeLab}/pause`, {}, ACME)).status).toBe(200);
    const paused = await next;
    expect(paused.body).toMatchObject({ changed: true, count: 0, ids_hash: idsHash([]), monitors: [], removed: [m.acmeLab] });
    expect((await w.acmeAdmin.post(`/api/v1/monitors/${m.acmeLab}/resume`, {}, ACME)).status).toBe(200);
    const resumed = await assignments(w.acmeLab.token, `?version=${paused.body.version}&wait=30`);
    expect(ids(resumed.body)).toEqual([m.acmeLab]);
    expect(resumed.body.count).toBe(1);
  });

  it('notices a deleted monitor by the count and fingerprint (the probe then asks for the whole set)', async () => {
    const gone = await seedLocatedMonitor(t, w.globexAdmin, GLOBEX, { name: 'globex short-lived' }, ['lab']);
    const before = await assignments(w.globexLab.token);
    expect(before.body.count).toBe(3);
    const waiting = assignments(w.globexLab.token, `?version=${before.body.version}&wait=30`);
    expect((await w.root.delete(`/api/v1/monitors/${gone}`)).status).toBe(200); // company admins do not delete
    const after = await waiting;
    expect(after.body).toMatchObject({ changed: true, count: 2, ids_hash: idsHash([m.globexBoth, m.globexLab]) });
  });

  const result = (id: string, monitorId: string, over: Record<string, unknown> = {}) => ({
    id,
    monitor_id: monitorId,
    checked_at: clock - 5_000,
    status: 'operational',
    response_time_ms: 12.5,
    http_code: 200,
    error: null,
    timings: { dns: 0.4, connect: 1, ttfb: 10, total: 12.5 },
    cert_expires_at: null,
    cert_issuer: null,
    cert_subject: null,
    ...over,
  });
  const stats = { instance: 'rack-1', checks_per_second: 2.5, lag_ms_p99: 7 };
  // The answer comes once the results are taken (in the inbox); they are stored just after it.
  const stored = async (monitorId: string) => {
    await inboxDrained(t.services);
    return t.services.db.k
      .selectFrom('check_results')
      .select(['location', 'status', 'checked_at'])
      .where('monitor_id', '=', monitorId)
      .execute();
  };

  it('stores a batch once however often it is sent, by the location, and keeps the probe figures', async () => {
    const batch = {
      stats,
      results: [
        result('r-1', m.acmeEu),
        // past ASCII: the text goes through the inbox row and the stored result unchanged
        result('r-2', m.globexBoth, {
          status: 'down',
          error: 'Verbindung abgelehnt – 接続拒否 🔌',
          http_code: null,
          response_time_ms: null,
        }),
      ],
    };
    const once = await probeCall(t, w.euWest.token, 'POST', '/api/v1/probe/results', batch);
    expect(once.status).toBe(200);
    expect(once.body).toEqual({ accepted: 2, duplicates: 0, refused: [] });
    const again = await probeCall(t, w.euWest.token, 'POST', '/api/v1/probe/results', batch);
    expect(again.body).toEqual({ accepted: 0, duplicates: 2, refused: [] });
    const num = (await t.services.db.k.selectFrom('probe_locations').select('num').where('id', '=', w.euWest.id).executeTakeFirstOrThrow())
      .num;
    expect(await stored(m.acmeEu)).toEqual([{ location: num, status: 'operational', checked_at: clock - 5_000 }]);
    expect(await stored(m.globexBoth)).toHaveLength(1);
    const globexBoth = await w.globexAdmin.get(`/api/v1/monitors/${m.globexBoth}`, GLOBEX);
    expect(globexBoth.body.location_status).toContainEqual(
      expect.objectContaining({ slug: 'eu-west', last_error: 'Verbindung abgelehnt – 接続拒否 🔌' }),
    );
    // a result dated after the platform's clock is taken as now; an id twice in one batch counts once
    const ahead = await probeCall(t, w.euWest.token, 'POST', '/api/v1/probe/results', {
      stats,
      results: [result('r-3', m.acmeEu, { checked_at: clock + 60_000 }), result('r-3', m.acmeEu, { checked_at: clock + 60_000 })],
    });
    expect(ahead.body).toEqual({ accepted: 1, duplicates: 1, refused: [] });
    expect((await stored(m.acmeEu)).map((r) => r.checked_at).sort()).toEqual([clock - 5_000, clock]);
    // a batch sent again with a new result added: only the new one is stored, with what it said
    const partly = await probeCall(t, w.euWest.token, 'POST', '/api/v1/probe/results', {
      stats,
      results: [
        result('r-1', m.acmeEu),
        result('r-4', m.globexBoth, { checked_at: clock - 1_000, status: 'degraded', http_code: 200 }),
        result('r-2', m.globexBoth),
      ],
    });
    expect(partly.body).toEqual({ accepted: 1, duplicates: 2, refused: [] });
    expect(await stored(m.acmeEu)).toHaveLength(2);
    expect((await stored(m.globexBoth)).sort((a, b) => a.checked_at - b.checked_at)).toEqual([
      { location: num, status: 'down', checked_at: clock - 5_000 },
      { location: num, status: 'degraded', checked_at: clock - 1_000 },
    ]);
    const detail = await w.root.get(`/api/v1/probe-locations/${w.euWest.id}`);
    expect(detail.body.probes).toEqual([expect.objectContaining({ instance: 'rack-1', checks_per_second: 2.5, lag_ms: 7, online: true })]);
  });

  it("takes a probe's numbered results once by their stream, per location, keeping one mark per stream instead of every id", async () => {
    const run1 = 'runAAAAAAAAAAAAAAAAAAA';
    const run2 = 'runBBBBBBBBBBBBBBBBBBB';
    const id = (stream: string, n: number) => `p1:${stream}:${n}`;
    // monitors of this test alone: the tests after it count what the others hold
    const eu = await seedLocatedMonitor(t, w.acmeAdmin, ACME, { name: 'acme streams' }, ['eu-west']);
    const both = await seedLocatedMonitor(t, w.globexAdmin, GLOBEX, { name: 'globex streams' }, ['eu-west', 'lab']);
    const lab = await seedLocatedMonitor(t, w.acmeAdmin, ACME, { name: 'acme lab streams' }, ['lab']);
    const at = (n: number) => clock - 40_000 + n;
    const send = (token: string, results: unknown[]) => probeCall(t, token, 'POST', '/api/v1/probe/results', { stats, results });
    const first = [result(id(run1, 1), eu, { checked_at: at(1) }), result(id(run1, 2), both, { checked_at: at(2) })];
    expect((await send(w.euWest.token, first)).body).toEqual({ accepted: 2, duplicates: 0, refused: [] });
    expect((await send(w.euWest.token, first)).body).toEqual({ accepted: 0, duplicates: 2, refused: [] });
    // the segment sent again after a lost answer, with the results appended since behind it
    const grown = [
      ...first,
      result(id(run1, 3), eu, { checked_at: at(3) }),
      result(id(run1, 4), both, { checked_at: at(4), status: 'down', error: 'Connection refused', http_code: null }),
    ];
    expect((await send(w.euWest.token, grown)).body).toEqual({ accepted: 2, duplicates: 2, refused: [] });
    // the probe restarted: a new stream counts from 1 again
    expect((await send(w.euWest.token, [result(id(run2, 1), eu, { checked_at: at(5) })])).body).toEqual({
      accepted: 1,
      duplicates: 0,
      refused: [],
    });
    // another location's mark is its own, even for a stream of the same name
    expect((await send(w.acmeLab.token, [result(id(run1, 1), lab, { checked_at: at(6) })])).body).toEqual({
      accepted: 1,
      duplicates: 0,
      refused: [],
    });
    const mine = async (monitorId: string) =>
      (await stored(monitorId)).sort((a, b) => Number(a.checked_at) - Number(b.checked_at)).map((r) => [Number(r.checked_at), r.status]);
    expect(await mine(eu)).toEqual([
      [at(1), 'operational'],
      [at(3), 'operational'],
      [at(5), 'operational'],
    ]);
    expect(await mine(both)).toEqual([
      [at(2), 'operational'],
      [at(4), 'down'],
    ]);
    expect(await mine(lab)).toEqual([[at(6), 'operational']]);
    // one row per location and stream, no row per id
    const streams = await t.services.db.k.selectFrom('probe_result_streams').select(['stream', 'last_seq']).orderBy('stream').execute();
    expect(streams.map((s) => [s.stream, Number(s.last_seq)])).toEqual([
      [run1, 4],
      [run1, 1],
      [run2, 1],
    ]);
    const kept = await t.services.db.k.selectFrom('probe_results_seen').select('result_id').where('result_id', 'like', 'p1:%').execute();
    expect(kept).toEqual([]);
  });

  it('keeps taken results in the inbox until they are stored, and the probe-inbox job stores what a stopped process left', async () => {
    const num = (await t.services.db.k.selectFrom('probe_locations').select('num').where('id', '=', w.euWest.id).executeTakeFirstOrThrow())
      .num;
    const outcome = {
      status: 'down' as const,
      responseTimeMs: null,
      httpCode: null,
      error: 'Connection refused',
      timings: null,
      certExpiresAt: null,
    };
    // What a process took and could not store before it stopped: rows in the inbox, nothing stored yet
    const company = (await t.services.db.k.selectFrom('monitors').select('company_id').where('id', '=', m.acmeEu).executeTakeFirstOrThrow())
      .company_id;
    const left = Array.from({ length: 150 }, (_, i) => ({
      monitorId: m.acmeEu,
      companyId: company,
      checkedAt: clock - 600_000 + i,
      kind: 'http',
      outcome,
    }));
    await probeInboxRepo(t.services.db).add(inboxRows(t.services.db.kind, num, 'eu-west', left, clock));
    expect(await probeInboxRepo(t.services.db).backlog()).toEqual({ results: 150, oldest: clock });
    const before = (await stored(m.acmeEu)).length;
    expect(await probeInbox.run(t.services, clock)).toBe('stored 150 probe results left in the inbox');
    expect((await stored(m.acmeEu)).length).toBe(before + 150);
    expect(await probeInboxRepo(t.services.db).backlog()).toEqual({ results: 0, oldest: null });
    expect(await probeInbox.run(t.services, clock)).toBeUndefined();
  });

  it('refuses results for monitors the location does not check, one by one, storing the rest', async () => {
    const r = await probeCall(t, w.euWest.token, 'POST', '/api/v1/probe/results', {
      stats,
      results: [
        result('x-1', m.acmeLocal), // not naming eu-west
        result('x-2', m.acmeLab), // Acme's private lab only
        result('x-3', m.acmePaused), // paused
        result('x-4', 'no-such-monitor'),
        result('x-5', m.acmeEu, { checked_at: clock - 8 * 24 * 3600_000 }),
        result('x-6', m.acmeEu, { checked_at: clock - 1_000 }),
      ],
    });
    expect(r.body).toEqual({
      accepted: 1,
      duplicates: 0,
      refused: [
        { id: 'x-1', reason: 'not_assigned' },
        { id: 'x-2', reason: 'not_assigned' },
        { id: 'x-3', reason: 'not_assigned' },
        { id: 'x-4', reason: 'not_assigned' },
        { id: 'x-5', reason: 'too_old' },
      ],
    });
    expect(await stored(m.acmeLocal)).toEqual([]);
    expect(await stored(m.acmeLab)).toEqual([]);
    // Globex's lab probe may not report on Acme's lab monitor: slugs are per company
    const cross = await probeCall(t, w.globexLab.token, 'POST', '/api/v1/probe/results', { stats, results: [result('y-1', m.acmeLab)] });
    expect(cross.body.refused).toEqual([{ id: 'y-1', reason: 'not_assigned' }]);
    expect(await stored(m.acmeLab)).toEqual([]);
  });

  it('refuses a malformed batch whole: bad JSON, a result missing a field, an unknown field, too many results', async () => {
    const post = (body: unknown) => probeCall(t, w.euWest.token, 'POST', '/api/v1/probe/results', body);
    expect((await post('{"stats":')).status).toBe(400);
    const { status: _s, ...noStatus } = result('z-1', m.acmeEu);
    expect((await post({ stats, results: [noStatus] })).status).toBe(400);
    expect((await post({ stats, results: [{ ...result('z-2', m.acmeEu), extra: 1 }] })).status).toBe(400);
    expect((await post({ stats, results: [result('z 3 has spaces', m.acmeEu)] })).status).toBe(400);
    expect((await post({ stats, results: [result('z'.repeat(65), m.acmeEu)] })).status).toBe(400);
    const many = Array.from({ length: 1001 }, (_, i) => result(`many-${i}`, m.acmeEu));
    expect((await post({ stats, results: many })).status).toBe(400);
    expect((await post({ results: [] })).status).toBe(400);
    expect(await stored(m.acmeEu)).toHaveLength(153); // the inbox test's 150 and what the earlier tests stored, nothing more
  });

  it('refuses a revoked token at once on every probe call', async () => {
    const tok = await w.acmeAdmin.post(`/api/v1/probe-locations/${w.acmeLab.id}/tokens`, { name: 'to revoke' }, ACME);
    const token = tok.body.token as string;
    expect((await assignments(token)).status).toBe(200);
    expect((await w.acmeAdmin.delete(`/api/v1/probe-locations/${w.acmeLab.id}/tokens/${tok.body.id}`, ACME)).status).toBe(200);
    expect((await assignments(token)).status).toBe(401);
    expect((await assignments(token, '?version=1.1.1.00000000&wait=5')).status).toBe(401);
    expect((await probeCall(t, token, 'POST', '/api/v1/probe/results', { stats, results: [] })).status).toBe(401);
    // a delivery's own statements run beside the token's check, gated by the token in SQL: for a
    // revoked one they store nothing and leave the probe's figures as they were
    const figures = () =>
      t.services.db.k.selectFrom('probes').select(['instance', 'last_seen_at', 'checks_per_second']).orderBy('instance').execute();
    const before = await figures();
    const refused = await probeCall(t, token, 'POST', '/api/v1/probe/results', {
      stats: { instance: 'rack-1', checks_per_second: 999, lag_ms_p99: 1 },
      results: [result('revoked-1', m.acmeLab, { checked_at: clock - 2_000 })],
    });
    expect(refused.status).toBe(401);
    await inboxDrained(t.services);
    expect(await figures()).toEqual(before);
    expect(
      await t.services.db.k
        .selectFrom('check_results')
        .select('status')
        .where('monitor_id', '=', m.acmeLab)
        .where('checked_at', '=', clock - 2_000)
        .execute(),
    ).toEqual([]);
    expect((await probeCall(t, token, 'POST', '/api/v1/probe/hello', PROBE)).status).toBe(401);
    expect((await assignments('swp_not-a-token')).status).toBe(401);
    expect((await probeCall(t, null, 'GET', '/api/v1/probe/assignments')).status).toBe(401);
  });

  it("reads nothing else with a probe token: the company's monitors, incidents, locations and account all answer 401", async () => {
    for (const path of [
      '/api/v1/monitors',
      `/api/v1/monitors/${m.acmeLab}`,
      '/api/v1/incidents',
      '/api/v1/probe-locations',
      '/api/v1/auth/me',
    ]) {
      const r = await probeCall(t, w.acmeLab.token, 'GET', path);
      expect(r.status, path).toBe(401);
    }
    const write = await probeCall(t, w.acmeLab.token, 'POST', '/api/v1/monitors', { name: 'x', type: 'http', url: 'http://127.0.0.1:9/' });
    expect(write.status).toBe(401);
  });
});
