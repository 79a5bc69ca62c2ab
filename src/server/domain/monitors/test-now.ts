// Test now: a monitor's input is validated as for a create and checked once through the engine,
// without saving. Each test reaches the target like an immediate check after a save, so a
// company gets as many of them per window as it gets immediate checks (immediate-checks.ts):
// otherwise the button would turn the engine into a port scanner.
import type { MonitorType } from '../../db/schema/monitoring.ts';
import { checkOnce } from '../../engine/check-once.ts';
import { KINDS } from '../../engine/kinds/index.ts';
import { companyScope, requirePermission } from '../authz.ts';
import type { Ctx } from '../context.ts';
import { DomainError } from '../errors.ts';
import { SlidingWindow } from '../auth/throttle.ts';
import { toIsoOrNull } from '../ids.ts';
import { immediateCheckLimits } from './immediate-checks.ts';
import { monitorSecretsKey } from '../../engine/kinds/secret-box.ts';
import { validateMonitor, type MonitorInput } from './validate.ts';
import { load, validOf } from './service.ts';
import { checkLinks, configChildren } from './links.ts';
import { requireKnownSecrets } from '../secrets/company-secrets.ts';
import type { StepResult } from '../../engine/kinds/synthetic-run.ts';

declare module '../context.ts' {
  interface ProcessState {
    /**
     * Each company's recent tests, per process (a test is a user's click, not a stored fact); made
     * at the first test and again when the limits change (this file)
     */
    monitorTests: SlidingWindow | null;
  }
}

function takeTestSlot(ctx: Ctx, key: string): void {
  const { windowMs, perCompany } = immediateCheckLimits(ctx);
  let tests = ctx.services.state.monitorTests;
  if (!tests || tests.limit !== perCompany || tests.windowMs !== windowMs) {
    tests = new SlidingWindow(perCompany, windowMs);
    ctx.services.state.monitorTests = tests;
  }
  const now = ctx.services.now();
  const retryAfter = tests.retryAfter(key, now);
  if (retryAfter > 0) {
    throw new DomainError(
      'rate_limited',
      `Test now runs at most ${perCompany} checks a minute for a company. Try again in ${retryAfter} s.`,
      {
        retryAfter,
      },
    );
  }
  tests.hit(key, now);
}

/** `monitorId`: the saved monitor being edited, whose stored fields (its password) fill the ones left out. */
export async function testMonitor(ctx: Ctx, input: MonitorInput & { type: MonitorType }, monitorId?: string) {
  return (await prepareTest(ctx, input, monitorId))();
}

export type TestRun = (onStep?: (step: StepResult) => void) => Promise<Awaited<ReturnType<typeof runPrepared>>>;

/**
 * Everything Test now refuses (validation, permission, the rate limit), done; the check itself left
 * to run. A streamed test (POST /monitors/test?stream=true) answers its refusals as problems before
 * its first line, then runs with `onStep`.
 */
export async function prepareTest(ctx: Ctx, input: MonitorInput & { type: MonitorType }, monitorId?: string): Promise<TestRun> {
  const actor = requirePermission(ctx, 'create', 'monitors', 'test monitors');
  const s = ctx.services;
  const base = monitorId ? validOf(await load(ctx, monitorId)) : null;
  if (base && input.type && input.type !== base.type)
    throw new DomainError('validation', 'The type of a monitor cannot change; create a new monitor instead', {
      fields: { type: 'Type cannot change' },
    });
  const v = await validateMonitor(input, base, {
    minInterval: s.config.minCheckIntervalSeconds,
    allowPrivate: s.config.allowPrivateTargets,
    resolve: s.monitoring?.resolve,
    secretsKey: monitorSecretsKey(s.config),
  });
  if (KINDS[v.type].heartbeat)
    throw new DomainError('validation', 'A push monitor is checked by the calls to its URL: save it, then call its URL.', {
      fields: { type: 'Push monitors cannot be tested before they are saved' },
    });
  const company = actor.role === 'super_admin' ? (input.company_id ?? `platform:${actor.userId}`) : companyScope(ctx, null)!;
  // A group's children are read by the check: only the company's own (their names and states
  // are in its answer), as a save would refuse others.
  const owner = actor.role === 'super_admin' ? (input.company_id ?? null) : company;
  const children = configChildren(v.config);
  let config = v.config;
  if (owner && (children !== null || v.parents.length > 0)) {
    const links = await checkLinks(s.db, owner, null, { children, parents: v.parents }, { children: [], parents: [] });
    if (links.children !== null) config = { ...v.config, children: links.children };
  }
  await requireKnownSecrets(s.db, owner, config);
  takeTestSlot(ctx, company);
  const unsaved = { type: v.type, config, timeoutSeconds: v.timeoutSeconds, intervalSeconds: v.intervalSeconds, companyId: owner };
  return (onStep) => runPrepared(s, { ...unsaved, ...(onStep ? { onStep } : {}) });
}

async function runPrepared(s: Ctx['services'], unsaved: Parameters<typeof checkOnce>[1]) {
  const o = await checkOnce(s, unsaved);
  return {
    status: o.status,
    response_time_ms: o.responseTimeMs,
    status_code: o.httpCode,
    error: o.error,
    timings: o.timings,
    cert_expires_at: toIsoOrNull(o.certExpiresAt),
    ...(o.detail?.run ? { run: o.detail.run } : {}),
  };
}
