// api_flow monitors run by the engine on both databases against the loopback shop: the journey's
// run is kept and shown as last_run, each step's time is stored with the result (step_1 … next to
// total), Test now answers the run, and a company secret used by the steps reaches the shop while
// its value appears nowhere else: not in the API's answers, the stored results, the monitor row,
// the notifications or the engine's log, even when the shop echoes it back into a failing step.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Ctx, Services } from '../../../../src/server/domain/context.ts';
import { createMonitor, getMonitor } from '../../../../src/server/domain/monitors/service.ts';
import { testMonitor } from '../../../../src/server/domain/monitors/test-now.ts';
import { getResponseTimes } from '../../../../src/server/domain/monitors/response-times.ts';
import { putSecret } from '../../../../src/server/domain/secrets/company-secrets.ts';
import { createEngine, type Engine } from '../../../../src/server/engine/scheduler.ts';
import { DB_KINDS } from '../../../support/test-db.ts';
import { startShop, SHOP_EMAIL, type Shop } from '../../../support/kind-servers/shop.ts';
import { engineServices, seedTenant } from '../support.ts';
import { shopFlow } from '../../../support/kind-servers/shop-flows.ts';

const SECRET = 'Shop-Pa55word-Only-The-Shop-Knows';

let shop: Shop;
beforeAll(async () => {
  shop = await startShop({ password: SECRET });
});
afterAll(async () => {
  await shop?.close();
});

describe.each(DB_KINDS)('api_flow monitors on %s', (kind) => {
  let services: Services;
  let engine: Engine;
  let ctx: Ctx;
  const log: string[] = [];

  beforeAll(async () => {
    services = await engineServices(kind);
    engine = createEngine(services, { log: (line) => log.push(line) });
    services.monitoring = { engine, immediateChecks: { windowMs: 0, perCompany: Infinity } };
    ctx = (await seedTenant(services)).adminCtx;
    await putSecret(ctx, 'SHOP_PASSWORD', { value: SECRET });
  });
  afterAll(async () => {
    await engine?.stop();
    await services?.db.close();
  });

  const create = (name: string, steps: unknown[]): Promise<Record<string, any> & { id: string }> =>
    createMonitor(ctx, { name, type: 'api_flow', interval_seconds: 60, timeout_seconds: 5, confirmations: 1, steps } as never);
  const settled = async (id: string) => {
    await engine.runDueNow();
    return getMonitor(ctx, id) as Promise<Record<string, any>>;
  };

  it('runs the journey with a company secret, keeps the run and stores each step time', async () => {
    const m = await create('Shop journey', shopFlow(shop.url, { password: '{{secrets.SHOP_PASSWORD}}' }));
    expect(m.last_run).toBeNull();
    const after = await settled(m.id);
    expect({ status: after.status, error: after.last_error, code: after.last_http_code }).toEqual({
      status: 'operational',
      error: null,
      code: 200,
    });
    expect(after.last_run.steps.map((s: { status: string }) => s.status)).toEqual(['passed', 'passed', 'passed', 'passed', 'passed']);
    expect(after.last_run).toMatchObject({ web_vitals: null, console_errors: [], failed_requests: [] });
    const [row] = await services.db.k.selectFrom('check_results').select('timings').where('monitor_id', '=', m.id).execute();
    expect(Object.keys(JSON.parse(String(row.timings))).sort()).toEqual(['step_1', 'step_2', 'step_3', 'step_4', 'step_5', 'total']);
    // The secret went to the shop, opened.
    expect(shop.requests.some((r) => r.path === '/api/login' && r.body.includes(SECRET))).toBe(true);
    // The reference is what the monitor shows.
    expect(after.steps[0].body).toContain('{{secrets.SHOP_PASSWORD}}');
    // Each step's time is charted beside the phases.
    const chart = await getResponseTimes(ctx, m.id, { range: '24h' });
    expect(chart.phases).toMatchObject({ samples: 1, total: expect.any(Number) });
    expect((chart.phases as { steps?: unknown[] }).steps).toEqual(
      ['Sign in', 'List products', 'Add to cart', 'Pay', 'Read the order'].map((name, i) => ({
        index: i + 1,
        name,
        avg: expect.any(Number),
      })),
    );
  });

  it('answers the run in Test now', async () => {
    const r = await testMonitor(ctx, {
      name: 't',
      type: 'api_flow',
      steps: shopFlow(shop.url, { password: '{{secrets.SHOP_PASSWORD}}' }),
    } as never);
    expect(r.status).toBe('operational');
    expect(r.run?.steps).toHaveLength(5);
    expect(Object.keys(r.timings ?? {})).toContain('step_5');
  });

  it('never lets the secret out, even when the target echoes it into a failing step', async () => {
    const echo = [
      {
        name: 'Echo',
        method: 'POST',
        url: shop.url('/api/echo'),
        headers: { 'x-password': '{{secrets.SHOP_PASSWORD}}' },
        body: `{"email":"${SHOP_EMAIL}","password":"{{secrets.SHOP_PASSWORD}}"}`,
        assertions: [{ source: 'json', property: '$.body', comparison: 'equals', target: 'nothing' }],
      },
      { name: 'Later', url: shop.url('/api/products') },
    ];
    const m = await create('Echo journey', echo);
    const after = await settled(m.id);
    expect(after.status).toBe('down');
    expect(after.last_error).toBe(
      'Step 1 "Echo": json $.body equals nothing, got {"email":"shopper@example.com","password":"[secret SHOP_PASSWORD]"}',
    );
    expect(after.last_run.steps[0].error).toContain('[secret SHOP_PASSWORD]');
    const test = await testMonitor(ctx, { name: 't', type: 'api_flow', steps: echo } as never);
    expect(test.error).toContain('[secret SHOP_PASSWORD]');
    const k = services.db.k;
    const stored = JSON.stringify([
      await k.selectFrom('check_results').selectAll().execute(),
      await k.selectFrom('monitors').selectAll().execute(),
      await k.selectFrom('notifications').selectAll().execute(),
      await k.selectFrom('incidents').selectAll().execute(),
      await k.selectFrom('audit_events').selectAll().execute(),
      await k.selectFrom('company_secrets').selectAll().execute(),
    ]);
    expect(stored).toContain('[secret SHOP_PASSWORD]');
    expect(stored).not.toContain(SECRET);
    expect(JSON.stringify([after, test, await getMonitor(ctx, m.id)])).not.toContain(SECRET);
    expect(log.join('\n')).not.toContain(SECRET);
  });
});
