// At 50,000 monitors every 60 s (833 checks a second) the engine's one-second look-ahead holds
// about 850 claimed checks waiting for their due time; they must all be claimed ahead, or the rest
// are claimed only once due and start late (the old budget of 500 did that: seconds of lag).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Services } from '../../../src/server/domain/context.ts';
import { newMonitorRow } from '../../../src/server/db/repositories/monitors-repo.ts';
import { newId } from '../../../src/server/domain/ids.ts';
import { createEngine } from '../../../src/server/engine/scheduler.ts';
import { seedCompany } from '../../support/fixtures.ts';
import { DB_KINDS } from '../../support/test-db.ts';
import { startHttpTargets, type HttpTargets } from '../../fixtures/targets/http-targets.ts';
import { engineServices, manualClock } from './support.ts';
import { waitFor } from '../../support/wait-for.ts';

const COMPANIES = 12;
const EACH = 100; // under a company's queue bound (4 x its 50 workers)

describe.each(DB_KINDS)('claiming ahead on %s', (kind) => {
  let services: Services;
  let http: HttpTargets;
  const clock = manualClock(Date.now());

  beforeAll(async () => {
    http = await startHttpTargets();
    services = await engineServices(kind, {}, clock.now);
  });
  afterAll(async () => {
    await http?.close();
    await services?.db.close();
  });

  it('claims all 1,200 checks due within the look-ahead, not the first 500', async () => {
    const now = clock.now();
    for (let c = 0; c < COMPANIES; c++) {
      const co = await seedCompany(services, { plan: 'enterprise' });
      const rows = Array.from({ length: EACH }, (_, i) =>
        newMonitorRow({
          id: newId(),
          company_id: co.id,
          name: `m${c}-${i}`,
          type: 'http',
          // a target that never answers: a started check stays in flight until the engine stops
          config: JSON.stringify({ url: http.url('/slow-headers'), method: 'GET' }),
          is_public: false,
          interval_seconds: 60,
          timeout_seconds: 5,
          confirmations: 2,
          next_due_at: now + 900,
          created_at: now,
        }),
      );
      await services.db.k.insertInto('monitors').values(rows).execute();
    }
    const engine = createEngine(services, { tickMs: 20, stopGraceMs: 200 });
    engine.start();
    let most = 0;
    await waitFor(() => (most = Math.max(most, engine.stats.inFlight)) >= COMPANIES * EACH, {
      intervalMs: 5,
      what: `${COMPANIES * EACH} checks in flight at once`,
    }).catch(() => undefined); // the assertion below says how many there were
    await engine.stop();
    expect(most).toBe(COMPANIES * EACH);
  });
});
