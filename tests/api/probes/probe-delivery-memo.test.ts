// A probe's deliveries after a change (issue 27 item 6), on both databases. On PostgreSQL a
// delivery naming monitors an earlier one named is judged on what that one read and lands in one
// statement that checks nothing changed since (domain/probes/delivery-memo.ts); every change that
// decides what a location may report must still be seen by the very next delivery: a monitor
// paused, moved off the location, deleted, its company deactivated, a private location shadowing
// the public slug, the token revoked. Each step first delivers once, so the memo is warm.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inboxDrained } from '../../../src/server/domain/probes/inbox.ts';
import { newId } from '../../../src/server/domain/ids.ts';
import { probeLocationsRepo } from '../../../src/server/db/repositories/probe-locations-repo.ts';
import { DB_KINDS } from '../../support/test-db.ts';
import { startTestApp, type TestApp } from '../../support/test-app.ts';
import {
  ACME,
  GLOBEX,
  probeCall,
  type ProbeWorld,
  seedLocatedMonitor,
  seedProbeWorld,
  setLocations,
} from '../../support/probe-fixtures.ts';

describe.each(DB_KINDS)("a probe's next delivery sees every change since its last, on %s", (kind) => {
  let t: TestApp;
  let w: ProbeWorld;
  let now = Date.parse('2026-12-01T10:00:00Z');
  let seq = 0;
  const stats = { instance: 'rack-1', checks_per_second: 2.5, lag_ms_p99: 7 };
  const result = (monitorId: string) => ({
    id: `memo-${++seq}`,
    monitor_id: monitorId,
    // one second apart: a location stores one result per monitor and time
    checked_at: now - 60_000 + seq * 1_000,
    status: 'operational',
    response_time_ms: 12,
    http_code: 200,
    error: null,
    timings: { total: 12 },
    cert_expires_at: null,
    cert_issuer: null,
    cert_subject: null,
  });
  const deliver = (token: string, monitorIds: string[], over: Partial<typeof stats> = {}) =>
    probeCall(t, token, 'POST', '/api/v1/probe/results', { stats: { ...stats, ...over }, results: monitorIds.map(result) });
  const refusedOf = (body: { refused: Array<{ id: string }> }) => body.refused.length;
  const storedCount = async (monitorId: string) => {
    await inboxDrained(t.services);
    const r = await t.services.db.k
      .selectFrom('check_results')
      .select((e) => e.fn.countAll<number>().as('n'))
      .where('monitor_id', '=', monitorId)
      .executeTakeFirstOrThrow();
    return Number(r.n);
  };

  beforeAll(async () => {
    t = await startTestApp({ db: kind, now: () => now });
    w = await seedProbeWorld(t);
    for (const token of [w.euWest.token, w.acmeLab.token])
      expect((await probeCall(t, token, 'POST', '/api/v1/probe/hello', { instance: 'rack-1', version: '1.0.0' })).status).toBe(200);
  });
  afterAll(async () => t?.close());

  it('refuses a monitor paused, moved off the location or deleted since, and takes it again once resumed', async () => {
    const a = await seedLocatedMonitor(t, w.acmeAdmin, ACME, { name: 'memo a' }, ['eu-west']);
    const b = await seedLocatedMonitor(t, w.acmeAdmin, ACME, { name: 'memo b' }, ['eu-west']);
    expect((await deliver(w.euWest.token, [a, b])).body).toMatchObject({ accepted: 2, refused: [] });

    expect((await w.acmeAdmin.post(`/api/v1/monitors/${a}/pause`, {}, ACME)).status).toBe(200);
    const paused = await deliver(w.euWest.token, [a, b]);
    expect(paused.body).toMatchObject({ accepted: 1, refused: [{ reason: 'not_assigned' }] });
    expect((await w.acmeAdmin.post(`/api/v1/monitors/${a}/resume`, {}, ACME)).status).toBe(200);
    expect((await deliver(w.euWest.token, [a, b])).body).toMatchObject({ accepted: 2, refused: [] });

    // stored before the next change: the drainer stores a result only while its location may report it
    expect(await storedCount(b)).toBe(3);
    await setLocations(t, b, ['local']);
    const moved = await deliver(w.euWest.token, [a, b]);
    expect(moved.body).toMatchObject({ accepted: 1, refused: [{ reason: 'not_assigned' }] });

    expect((await deliver(w.euWest.token, [a])).body).toMatchObject({ accepted: 1 });
    expect((await w.root.delete(`/api/v1/monitors/${a}`)).status).toBe(200);
    const deleted = await deliver(w.euWest.token, [a]);
    expect(deleted.status).toBe(200);
    expect(deleted.body).toMatchObject({ accepted: 0, refused: [{ reason: 'not_assigned' }] });
    expect(await storedCount(b)).toBe(3);
    expect(await storedCount(a)).toBe(0);
  });

  it("refuses a revoked token's next delivery (401), storing nothing and leaving the probe's figures; a live one's figures move", async () => {
    const tok = await w.acmeAdmin.post(`/api/v1/probe-locations/${w.acmeLab.id}/tokens`, { name: 'memo' }, ACME);
    const token = tok.body.token as string;
    const lab = await seedLocatedMonitor(t, w.acmeAdmin, ACME, { name: 'memo lab' }, ['lab']);
    expect((await deliver(token, [lab])).body).toMatchObject({ accepted: 1 });
    now += 1_000;
    expect((await deliver(token, [lab], { checks_per_second: 4.5 })).body).toMatchObject({ accepted: 1 });
    const probe = async () => (await w.acmeAdmin.get(`/api/v1/probe-locations/${w.acmeLab.id}`, ACME)).body.probes[0];
    expect(await probe()).toMatchObject({ instance: 'rack-1', checks_per_second: 4.5 });

    expect((await w.acmeAdmin.delete(`/api/v1/probe-locations/${w.acmeLab.id}/tokens/${tok.body.id}`, ACME)).status).toBe(200);
    now += 1_000;
    const refused = await deliver(token, [lab], { checks_per_second: 99 });
    expect(refused.status).toBe(401);
    expect(await storedCount(lab)).toBe(2);
    expect(await probe()).toMatchObject({ checks_per_second: 4.5 });
  });

  it("refuses a deactivated company's monitors, and a company's monitors once its own private location shadows the public slug", async () => {
    const acme = await seedLocatedMonitor(t, w.acmeAdmin, ACME, { name: 'memo acme' }, ['eu-west']);
    const globex = await seedLocatedMonitor(t, w.globexAdmin, GLOBEX, { name: 'memo globex' }, ['eu-west']);
    expect((await deliver(w.euWest.token, [acme, globex])).body).toMatchObject({ accepted: 2, refused: [] });
    expect(await storedCount(globex)).toBe(1);

    // A private eu-west of Globex's own, as data from before slugs were kept apart (the API now
    // refuses the clash, 409): for Globex the slug names that location, so the public one's probe
    // may no longer report on Globex's monitor.
    const own = newId();
    await probeLocationsRepo(t.services.db).insert({
      id: own,
      slug: 'eu-west',
      name: 'Globex Frankfurt',
      company_id: w.globex.id,
      created_at: now,
      created_by: null,
    });
    const shadowed = await deliver(w.euWest.token, [acme, globex]);
    expect(shadowed.body).toMatchObject({ accepted: 1, refused: [{ id: `memo-${seq}`, reason: 'not_assigned' }] });
    expect(await storedCount(globex)).toBe(1);

    expect((await deliver(w.euWest.token, [acme])).body).toMatchObject({ accepted: 1 });
    expect(await storedCount(acme)).toBe(3);
    const { name, email, subdomain } = (await w.root.get(`/api/v1/admin/companies/${w.acme.id}`)).body;
    const activity = (is_active: boolean) => w.root.put(`/api/v1/admin/companies/${w.acme.id}`, { name, email, subdomain, is_active });
    expect((await activity(false)).status).toBe(200);
    const inactive = await deliver(w.euWest.token, [acme]);
    expect(inactive.body).toMatchObject({ accepted: 0 });
    expect(refusedOf(inactive.body)).toBe(1);
    expect((await activity(true)).status).toBe(200);
    expect((await deliver(w.euWest.token, [acme])).body).toMatchObject({ accepted: 1, refused: [] });
    expect(await storedCount(acme)).toBe(4);
  });
});
