// A claimed check waits from the moment it is launched until its due time, not from when its
// claim began: a claim query that takes 800 ms (PostgreSQL on a busy machine) must not make the
// check start 800 ms late.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Services } from '../../../src/server/domain/context.ts';
import { newId } from '../../../src/server/domain/ids.ts';
import { createEngine } from '../../../src/server/engine/scheduler.ts';
import { seedCompany } from '../../support/fixtures.ts';
import { DB_KINDS } from '../../support/test-db.ts';
import { startHttpTargets, type HttpTargets } from '../../fixtures/targets/http-targets.ts';
import { engineServices, httpMonitorRow } from './support.ts';
import { waitFor } from '../../support/wait-for.ts';

describe.each(DB_KINDS)('check start time on %s', (kind) => {
  let services: Services;
  let http: HttpTargets;
  const T = Date.now();
  let clock = () => T;

  beforeAll(async () => {
    http = await startHttpTargets();
    services = await engineServices(kind, {}, () => clock());
  });
  afterAll(async () => {
    await http?.close();
    await services?.db.close();
  });

  it('starts a check claimed at T and due at T + 900 ms when the claim returned at T + 800 ms: 100 ms later', async () => {
    const co = await seedCompany(services, { plan: 'enterprise' });
    const id = newId();
    const row = httpMonitorRow({
      id,
      companyId: co.id,
      name: 'on time',
      url: http.url(`/count/${id}`),
      intervalSeconds: 60,
      timeoutSeconds: 5,
      confirmations: 2,
      nextDueAt: T + 900,
      createdAt: T,
    });
    await services.db.k.insertInto('monitors').values(row).execute();
    // The tick reads the clock once (T); every later reading is after the claim came back.
    let reads = 0;
    clock = () => (reads++ === 0 ? T : T + 800);
    const engine = createEngine(services, { tickMs: 50_000 });
    const started = Date.now();
    engine.start();
    await waitFor(() => http.hits.get(`/count/${id}`), { intervalMs: 5, what: 'the check reaching the target' });
    await engine.stop();
    expect(http.hits.get(`/count/${id}`)?.[0]).toBeDefined();
    expect(http.hits.get(`/count/${id}`)![0] - started).toBeLessThan(600); // 100 ms, not 900
  });
});
