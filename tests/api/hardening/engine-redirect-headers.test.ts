// A monitor's own headers (credentials included) go to its target's origin only: a redirect to
// another origin (scheme, host or port) is followed without them, as browsers and curl do.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Ctx, Services } from '../../../src/server/domain/context.ts';
import { createEngine, type Engine } from '../../../src/server/engine/scheduler.ts';
import { createMonitor, getMonitor } from '../../../src/server/domain/monitors/service.ts';
import { startHttpTargets, type HttpTargets } from '../../fixtures/targets/http-targets.ts';
import { engineServices, seedTenant } from '../engine/support.ts';

const SECRET_HEADERS = { Authorization: 'Bearer tok-123', 'X-Api-Key': 'key-456', Cookie: 'session=abc', 'X-Tenant-Note': 'custom' };

describe('secret headers and redirects', () => {
  let services: Services;
  let engine: Engine;
  let first: HttpTargets;
  let other: HttpTargets; // another port: another origin
  let ctx: Ctx;

  beforeAll(async () => {
    [first, other] = await Promise.all([startHttpTargets(), startHttpTargets()]);
    services = await engineServices('sqlite'); // private targets open for loopback
    engine = createEngine(services);
    ctx = (await seedTenant(services)).adminCtx;
  });
  afterAll(async () => {
    await Promise.all([first?.close(), other?.close()]);
    await services?.db.close();
  });

  const monitor = (name: string, to: string) =>
    createMonitor(ctx, {
      name,
      type: 'http',
      url: first.url(`/redirect-to?to=${encodeURIComponent(to)}`),
      headers: SECRET_HEADERS,
      interval_seconds: 60,
      timeout_seconds: 2,
      confirmations: 1,
      is_public: false,
    } as never);

  it('drops every custom header when a redirect leads to another origin, and keeps them on a same-origin redirect', async () => {
    const cross = await monitor('cross-origin redirect', other.url('/ok'));
    const same = await monitor('same-origin redirect', '/count/same');
    await engine.runDueNow();
    expect((await getMonitor(ctx, cross.id)).status).toBe('operational');
    expect((await getMonitor(ctx, same.id)).status).toBe('operational');

    // the first hop had them all
    const firstHops = first.requests.filter((r) => r.path === '/redirect-to');
    expect(firstHops).toHaveLength(2);
    for (const r of firstHops)
      expect(r.headers).toMatchObject({
        authorization: 'Bearer tok-123',
        'x-api-key': 'key-456',
        cookie: 'session=abc',
        'x-tenant-note': 'custom',
      });

    // the other origin got none of them
    const atOther = other.requests.filter((r) => r.path === '/ok');
    expect(atOther).toHaveLength(1);
    for (const h of ['authorization', 'x-api-key', 'cookie', 'x-tenant-note']) expect(atOther[0].headers[h], h).toBeUndefined();
    expect(atOther[0].headers['user-agent']).toMatch(/StatusWatch/); // the product's own headers stay

    // the same origin still did
    const sameHop = first.requests.find((r) => r.path === '/count/same');
    expect(sameHop?.headers).toMatchObject({
      authorization: 'Bearer tok-123',
      'x-api-key': 'key-456',
      cookie: 'session=abc',
      'x-tenant-note': 'custom',
    });
  });

  it('does not send them again when a later redirect comes back to the first origin', async () => {
    const back = first.url('/count/back');
    await monitor('away and back', other.url(`/redirect-to?to=${encodeURIComponent(back)}`));
    await engine.runDueNow();
    const hop = first.requests.find((r) => r.path === '/count/back');
    expect(hop).toBeDefined();
    expect(hop!.headers.authorization).toBeUndefined();
    expect(hop!.headers['x-api-key']).toBeUndefined();
  });
});
