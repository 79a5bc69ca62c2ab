// A probe runs an api_flow assignment against the loopback shop with the company secret its
// assignment carries (the platform opened it for this monitor only): the secret reaches the shop,
// the outcome is the flow's, and a secret the assignment lacks fails the step by name.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ProbeScheduler } from '../../../src/probe/scheduler.ts';
import type { Assignment } from '../../../src/probe/wire.ts';
import { DEFAULT_LIMITS, type CheckOutcome } from '../../../src/server/engine/checkers/types.ts';
import { startShop, type Shop } from '../../support/kind-servers/shop.ts';
import { shopFlow } from '../../support/kind-servers/shop-flows.ts';
import { waitFor } from '../../support/wait-for.ts';

const SECRET = 'probe-Held-Shop-Password-5';

describe('a probe running api_flow', () => {
  let shop: Shop;
  beforeAll(async () => {
    shop = await startShop({ password: SECRET });
  });
  afterAll(async () => {
    await shop?.close();
  });

  it('fills {{secrets.NAME}} from its assignment, and fails by name without it', async () => {
    const outcomes = new Map<string, CheckOutcome>();
    const scheduler = new ProbeScheduler(
      () => ({ now: Date.now, allowPrivateTargets: true, resolve: async () => [], limits: DEFAULT_LIMITS }),
      (id, _at, o) => void outcomes.set(id, o),
      () => undefined,
    );
    const steps = shopFlow(shop.url, { password: '{{secrets.SHOP_PASSWORD}}' });
    const assignment = (id: string, secrets?: Record<string, string>): Assignment => ({
      id,
      type: 'api_flow',
      config: { steps },
      interval_seconds: 1,
      timeout_seconds: 5,
      ...(secrets ? { secrets } : {}),
    });
    scheduler.replace([assignment('with', { SHOP_PASSWORD: SECRET }), assignment('without')]);
    scheduler.start();
    try {
      const [withSecret, without] = await waitFor(() => outcomes.size === 2 && [outcomes.get('with')!, outcomes.get('without')!], {
        what: 'both flows to run',
      });
      expect({ status: withSecret.status, error: withSecret.error }).toEqual({ status: 'operational', error: null });
      expect(without.error).toBe('Step 1 "Sign in": secret SHOP_PASSWORD is not defined');
      expect(shop.requests.some((r) => r.path === '/api/login' && r.body.includes(SECRET))).toBe(true);
    } finally {
      scheduler.stop();
    }
  });
});
