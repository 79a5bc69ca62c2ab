// What a hostile target can make the product store and publish: every check error is a short
// sentence the product wrote (never the target's body, headers or OpenSSL internals), and the
// public page and feeds say only that a monitor is not responding as expected.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Ctx } from '../../../src/server/domain/context.ts';
import { createEngine, type Engine } from '../../../src/server/engine/scheduler.ts';
import { STORED_ERROR_MAX, storedError } from '../../../src/server/engine/result-writer.ts';
import { createMonitor, getMonitor, listChecks } from '../../../src/server/domain/monitors/service.ts';
import { getIncident, listIncidents } from '../../../src/server/domain/incidents/service.ts';
import { listNotifications } from '../../../src/server/domain/notifications/service.ts';
import { startTestApp, type TestApp } from '../../support/test-app.ts';
import { DB_KINDS } from '../../support/test-db.ts';
import { actorFor, ctxFor, seedCompany, seedUser } from '../../support/fixtures.ts';
import { startHttpTargets, type HttpTargets } from '../../fixtures/targets/http-targets.ts';
import { startTlsTargets, type TlsTargets } from '../../fixtures/targets/tls-targets.ts';

const STORED_ERROR_CAP = 300;

describe('the stored-error gate', () => {
  it('drops control characters, folds whitespace and caps at 300 characters', () => {
    expect(STORED_ERROR_MAX).toBe(STORED_ERROR_CAP);
    expect(storedError('a\u0000b\r\nInjected: yes\u0007\u2028c')).toBe('a b Injected: yes c');
    const long = storedError('é'.repeat(10_000))!;
    expect(long).toHaveLength(STORED_ERROR_CAP);
    expect(long.endsWith('…')).toBe(true);
    expect(storedError(`${'a'.repeat(298)}😀😀`)!.endsWith('a…')).toBe(true); // no half emoji
    expect(storedError(null)).toBeNull();
  });
});

describe.each(DB_KINDS)('check errors a hostile target cannot fill, on %s', (kind) => {
  let t: TestApp;
  let engine: Engine;
  let http: HttpTargets;
  let tls: TlsTargets;
  let ctx: Ctx;
  let subdomain: string;

  beforeAll(async () => {
    [http, tls] = await Promise.all([startHttpTargets(), startTlsTargets()]);
    t = await startTestApp({ db: kind, env: { ALLOW_PRIVATE_TARGETS: 'true', MIN_CHECK_INTERVAL_SECONDS: '1' } });
    engine = createEngine(t.services, { extraCa: [tls.caPem] });
    const company = await seedCompany(t.services, { name: 'Hostile Targets Inc', plan: 'enterprise' });
    subdomain = company.subdomain;
    ctx = ctxFor(t.services, actorFor(await seedUser(t.services, { userType: 2, companyId: company.id })));
  });
  afterAll(async () => {
    await Promise.all([http?.close(), tls?.close()]);
    await t?.close();
  });

  const mk = (name: string, extra: Record<string, unknown>) =>
    createMonitor(ctx, {
      name,
      type: 'http',
      interval_seconds: 60,
      timeout_seconds: 3,
      confirmations: 1,
      is_public: true,
      ...extra,
    } as never);

  it('stores a capped, product-built error for a 900 KB JSON body and publishes none of it', async () => {
    const big = await mk('Big JSON', { url: http.url('/big-json'), json_path: '$', json_expected: 'ok' });
    const small = await mk('Small JSON', { url: http.url('/secret-json'), json_path: '$.secret', json_expected: 'expected-value' });
    await engine.runDueNow();

    for (const m of [big, small]) {
      const [check] = await listChecks(ctx, m.id, {});
      expect(check.status).toBe('down');
      expect(check.error!.length).toBeLessThanOrEqual(STORED_ERROR_CAP);
      expect(check.error).not.toContain('hunter2');
      expect(check.error).not.toContain('xxxx');
      expect((await getMonitor(ctx, m.id)).last_error).toBe(check.error);
    }
    expect((await listChecks(ctx, big.id, {}))[0].error).toBe('JSON path $ did not match the expected value');
    expect((await listChecks(ctx, small.id, {}))[0].error).toBe('JSON path $.secret did not match the expected value');

    // The automatic incident is public; its first update is a neutral sentence.
    const incidents = await listIncidents(ctx, {});
    const bigIncident = incidents.find((i) => i.monitor_id === big.id)!;
    const detail = await getIncident(ctx, bigIncident.id);
    expect(detail.updates.map((u: { message: string }) => u.message)).toEqual(['Big JSON is not responding as expected.']);

    // In-app notifications for the company carry the capped error, nothing more.
    for (const n of await listNotifications(ctx, {})) {
      expect(JSON.stringify(n)).not.toContain('hunter2');
      expect(JSON.stringify(n).length).toBeLessThan(3000);
    }

    const c = t.client();
    const host = `${subdomain}.localhost`;
    const pages = [
      await c.get('/api/v2/summary.json', { host }),
      await c.get(`/api/v1/public/public-status/${subdomain}`),
      await c.get('/history.rss', { host }),
      await c.get('/history.atom', { host }),
    ];
    for (const p of pages) {
      expect(p.status).toBe(200);
      expect(p.text).not.toContain('hunter2');
      expect(p.text).not.toContain('JSON path');
      expect(p.text.length).toBeLessThan(20_000);
    }
    expect(pages[0].text).toContain('"body":"Not responding as expected."');
  });

  it('says what went wrong in a TLS handshake without OpenSSL internals', async () => {
    const plainPort = http.port; // TLS spoken to a plain HTTP server
    const monitors = [
      await mk('https to plain http', { url: `https://localhost:${plainPort}/` }),
      await mk('client cert demanded', { url: `https://localhost:${tls.clientCertPort}/` }),
      await createMonitor(ctx, {
        name: 'ssl to plain http',
        type: 'ssl',
        host: 'localhost',
        port: plainPort,
        interval_seconds: 60,
        timeout_seconds: 3,
        confirmations: 1,
        is_public: false,
      } as never),
    ];
    await engine.runDueNow();
    for (const m of monitors) {
      const [check] = await listChecks(ctx, m.id, {});
      expect(check.status, m.name).toBe('down');
      expect(check.error, m.name).toMatch(/^TLS handshake failed/);
      expect(check.error, m.name).not.toMatch(/deps|routines|error:0A|\.c:\d+|SSL alert number/);
    }
  });
});
