// The engine world the kinds' database tests share (mail, postgres, mysql, redis): inside a
// describe, services on one platform database, a real engine (trusting the test CA), a company
// admin, and the two verbs every such test uses: `create` a monitor of the kind (checked at once,
// 60 s interval, one confirmation) and `settled` (run what is due, then the monitor must have the
// status; the name is in the comparison so a failure says which monitor).
import { afterAll, beforeAll, expect } from 'vitest';
import type { Ctx, Services } from '../../../../src/server/domain/context.ts';
import { createMonitor, getMonitor } from '../../../../src/server/domain/monitors/service.ts';
import type { MonitorType } from '../../../../src/server/db/schema/monitoring.ts';
import { createEngine, type Engine } from '../../../../src/server/engine/scheduler.ts';
import type { DbKind } from '../../../../src/server/db/connect.ts';
import { engineServices, seedTenant } from '../support.ts';

// biome-ignore lint/suspicious/noExplicitAny: a monitor view as the tests read it
type MonitorView = Record<string, any> & { id: string };

export interface KindWorld {
  services: Services;
  engine: Engine;
  /** the company admin */
  ctx: Ctx;
  viewerCtx: Ctx;
  create(name: string, extra: Record<string, unknown>): Promise<MonitorView>;
  settled(id: string, status: string): Promise<MonitorView>;
}

export function kindEngineWorld(
  db: DbKind,
  type: MonitorType,
  opts: { timeoutSeconds?: number; extraCa?: () => string[] | undefined } = {},
): KindWorld {
  const w = {} as KindWorld;
  beforeAll(async () => {
    const extraCa = opts.extraCa?.();
    w.services = await engineServices(db);
    w.engine = createEngine(w.services, extraCa ? { extraCa } : {});
    w.services.monitoring = { engine: w.engine, immediateChecks: { windowMs: 0, perCompany: Infinity }, ...(extraCa ? { extraCa } : {}) };
    ({ adminCtx: w.ctx, viewerCtx: w.viewerCtx } = await seedTenant(w.services));
  });
  afterAll(async () => {
    await w.engine?.stop();
    await w.services?.db.close();
  });
  w.create = (name, extra) =>
    createMonitor(w.ctx, {
      name,
      type,
      interval_seconds: 60,
      timeout_seconds: opts.timeoutSeconds ?? 2,
      confirmations: 1,
      is_public: false,
      ...extra,
    } as never) as Promise<MonitorView>;
  w.settled = async (id, status) => {
    await w.engine.runDueNow();
    const m = (await getMonitor(w.ctx, id)) as MonitorView;
    expect({ name: m.name, status: m.status, error: m.last_error }).toMatchObject({ name: m.name, status });
    return m;
  };
  return w;
}
