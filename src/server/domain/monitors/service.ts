// Monitor verbs: permission first, tenant filter always. Super admins see every company (with
// its name) and must say which company a new monitor belongs to; company users act only in
// their own company, whatever a body or query says.
import { companiesRepo } from '../../db/repositories/companies-repo.ts';
import { checksRepo } from '../../db/repositories/checks-repo.ts';
import { incidentsRepo } from '../../db/repositories/incidents-repo.ts';
import { maintenanceRepo } from '../../db/repositories/maintenance-repo.ts';
import { monitorsRepo, newMonitorRow, type MonitorWithTenant } from '../../db/repositories/monitors-repo.ts';
import { rollupsRepo } from '../../db/repositories/rollups-repo.ts';
import { withTransaction, type DbScope } from '../../db/scope.ts';
import type { MonitorType } from '../../db/schema/monitoring.ts';
import { KINDS, KIND_FIELDS } from '../../engine/kinds/index.ts';
import { incidentSeverity } from '../../engine/state-machine.ts';
import { parseConfig } from '../../engine/kinds/config.ts';
import type { Kind } from '../../engine/kinds/kind.ts';
import { uptimePercent } from '../../engine/rollup-math.ts';
import { LatencySketch } from '../../../lib/latency-sketch.ts';
import { coversMonitor } from '../../../lib/maintenance.ts';
import { isPlanName, planLimits } from '../../../lib/plans.ts';
import { DAY_MS, dayStart, HOUR_MS, hourStart } from '../../../lib/timeline.ts';
import { auditFromCtx } from '../audit/record.ts';
import { can } from '../../../lib/permissions.ts';
import { companyScope, requirePermission } from '../authz.ts';
import type { Ctx } from '../context.ts';
import { DomainError, notFound } from '../errors.ts';
import { newId, toIsoOrNull, toIso } from '../ids.ts';
import { checksPerMinute } from '../../../lib/destination-host.ts';
import { requireDestinationBudget, type Destination } from './destination-budget.ts';
import { firstDueAt, requestImmediateCheck } from './immediate-checks.ts';
import { hashPushToken, newPushToken, pushUrl } from './push-token.ts';
import { listSummaries, type MonitorListQuery } from './list-summary.ts';
import { monitorSecretsKey } from '../../engine/kinds/secret-box.ts';
import type { SyntheticRun } from '../../engine/kinds/synthetic-run.ts';
import { validateMonitor, type MonitorInput, type ValidMonitor } from './validate.ts';
import { browserSlugs, locationCatalog, locationStatuses, type LocationStatusView } from './locations.ts';
import { parseSlugList } from '../../../lib/monitor-locations.ts';
import { checkLinks, configChildren, idList } from './links.ts';
import { requireKnownSecrets } from '../secrets/company-secrets.ts';

/**
 * The kind's plan quota (browser monitors), counted in the caller's transaction: creating,
 * resuming or restoring one more active monitor of the kind must stay within it.
 */
async function requireKindQuota(tx: DbScope, plan: string | null, companyId: string, type: MonitorType, exceptId: string | null) {
  const limitOf = KINDS[type].planLimit;
  if (!limitOf) return;
  const limit = limitOf(planLimits(plan));
  if ((await monitorsRepo(tx).countActiveOfType(companyId, type, exceptId)) < limit) return;
  const name = (isPlanName(plan) ? plan : 'starter').replace(/^./, (c) => c.toUpperCase());
  throw new DomainError(
    'limit_exceeded',
    `Your ${name} plan allows ${limit} active ${type} monitor${limit === 1 ? '' : 's'}. Pause one or upgrade your plan to add more.`,
  );
}

/** The refusal when a company's plan is full: 'Your Starter plan allows 10 monitors. …' */
function planFull(plan: string, limit: number): DomainError {
  const name = plan.charAt(0).toUpperCase() + plan.slice(1);
  return new DomainError('limit_exceeded', `Your ${name} plan allows ${limit} monitors. Upgrade your plan to add more.`);
}

export function presentMonitor(ctx: Ctx, m: MonitorWithTenant, inMaintenance: boolean, locationStatus: LocationStatusView[]) {
  // Every kind's fields are in every monitor's view: null unless they are this kind's. The kind
  // masks its secrets from those who may not change the monitor.
  const secrets = can(ctx.actor?.role, 'update', 'monitors');
  const config = { ...Object.fromEntries(KIND_FIELDS.map((f) => [f, null])), ...KINDS[m.type].present(parseConfig(m.config), { secrets }) };
  return {
    id: m.id,
    company_id: m.company_id,
    tenant_name: m.tenant_name ?? null,
    name: m.name,
    type: m.type,
    ...config,
    interval_seconds: m.interval_seconds,
    timeout_seconds: m.timeout_seconds,
    confirmations: m.confirmations,
    sla_target: m.sla_target === null || m.sla_target === undefined ? null : Number(m.sla_target),
    is_public: m.is_public,
    is_critical: m.is_critical,
    is_paused: m.is_paused,
    status: m.is_paused ? ('paused' as const) : m.status,
    in_maintenance: inMaintenance,
    status_since: toIsoOrNull(m.status_since),
    last_checked_at: toIsoOrNull(m.last_checked_at),
    last_response_time: m.last_response_time_ms,
    last_http_code: m.last_http_code,
    last_error: m.last_error,
    cert_expires_at: toIsoOrNull(m.cert_expires_at),
    cert_issuer: m.cert_issuer ?? null,
    cert_subject: m.cert_subject ?? null,
    archived_at: toIsoOrNull(m.archived_at ?? null),
    // Only a hash of the token is stored: the URL is in the answer to create and to push-token.
    push_url: null as string | null,
    last_push_at: toIsoOrNull(m.last_push_at),
    locations: parseSlugList(m.locations),
    quorum: m.quorum ?? null,
    parents: idList(m.parents ?? null),
    registration: null as { expires_at: string | null; registrar: string | null; status: string[] } | null,
    last_run: null as SyntheticRun | null,
    ...KINDS[m.type].stateView?.(m.last_answers),
    location_status: locationStatus,
    created_at: toIso(m.created_at),
    updated_at: toIso(m.updated_at),
  };
}
export type MonitorView = ReturnType<typeof presentMonitor>;

/** A stored monitor as validation's base (an update's, or a Test now of an edit). */
export const validOf = (m: MonitorWithTenant): ValidMonitor => ({
  name: m.name,
  type: m.type,
  config: parseConfig(m.config),
  intervalSeconds: m.interval_seconds,
  timeoutSeconds: m.timeout_seconds,
  confirmations: m.confirmations,
  slaTarget: m.sla_target === null || m.sla_target === undefined ? null : Number(m.sla_target),
  isPublic: m.is_public,
  isCritical: m.is_critical,
  locations: parseSlugList(m.locations),
  quorum: m.quorum ?? null,
  parents: idList(m.parents ?? null),
});

/** The children and parents checked against the company's monitors, into the validated monitor. */
async function withLinks(
  ctx: Ctx,
  companyId: string,
  selfId: string | null,
  v: ValidMonitor,
  before: ValidMonitor | null,
): Promise<ValidMonitor> {
  const links = await checkLinks(
    ctx.services.db,
    companyId,
    selfId,
    { children: configChildren(v.config), parents: v.parents },
    { children: (before && configChildren(before.config)) ?? [], parents: before?.parents ?? [] },
  );
  return { ...v, parents: links.parents, config: links.children === null ? v.config : { ...v.config, children: links.children } };
}

async function maintenanceSet(ctx: Ctx, rows: MonitorWithTenant[]): Promise<(m: MonitorWithTenant) => boolean> {
  const windows = await maintenanceRepo(ctx.services.db).activeAt([...new Set(rows.map((r) => r.company_id))], ctx.services.now());
  return (m) => windows.some((w) => coversMonitor(w, m));
}

/** A stored monitor's destination, with the field its kind names it by (url, host, resolver). */
function storedDestination(m: MonitorWithTenant): Destination | null {
  if (!m.destination_host) return null;
  const config = parseConfig(m.config) as Record<string, unknown>;
  const { target } = (KINDS[m.type] as Kind<Record<string, unknown>>).validate((key) => config[key] as never, { allowPrivate: true });
  return { host: m.destination_host, field: target?.field ?? 'interval_seconds' };
}

export async function load(ctx: Ctx, id: string): Promise<MonitorWithTenant> {
  const scope = companyScope(ctx, null);
  const m = await monitorsRepo(ctx.services.db).findById(id, scope);
  if (!m) throw notFound('Monitor');
  return m;
}

/** One page of the console's list with its summary, and how many monitors match on all pages. */
export async function listMonitors(ctx: Ctx, q: MonitorListQuery) {
  requirePermission(ctx, 'view', 'monitors');
  const scope = companyScope(ctx, q.tenant);
  const sort = q.sort ?? 'created_at';
  const { rows, total } = await monitorsRepo(ctx.services.db).page(scope, {
    limit: q.limit ?? 100,
    offset: q.offset ?? 0,
    q: q.q?.trim() || undefined,
    type: q.type,
    status: q.status,
    isPublic: q.is_public,
    archived: q.archived,
    sort,
    order: q.order ?? (sort === 'created_at' ? 'desc' : 'asc'),
  });
  const inMaint = await maintenanceSet(ctx, rows);
  const where = await locationStatuses(ctx.services.db, rows, ctx.services.now());
  const dayAgo = ctx.services.now() - DAY_MS;
  const summary = await listSummaries(
    ctx,
    rows.map((m) => m.id),
    rows.filter((m) => Number(m.created_at) > dayAgo && m.last_checked_at !== null).map((m) => m.id),
  );
  return { total, items: rows.map((m) => ({ ...presentMonitor(ctx, m, inMaint(m), where(m)), ...summary(m.id) })) };
}

export async function getMonitor(ctx: Ctx, id: string) {
  requirePermission(ctx, 'view', 'monitors');
  const m = await load(ctx, id);
  const where = await locationStatuses(ctx.services.db, [m], ctx.services.now());
  return presentMonitor(ctx, m, (await maintenanceSet(ctx, [m]))(m), where(m));
}

export async function createMonitor(ctx: Ctx, input: MonitorInput & { type: MonitorType }) {
  const actor = requirePermission(ctx, 'create', 'monitors');
  const s = ctx.services;
  let companyId: string;
  if (actor.role === 'super_admin') {
    if (!input.company_id)
      throw new DomainError('validation', 'Choose the company this monitor belongs to', { fields: { company_id: 'Company is required' } });
    companyId = input.company_id;
  } else {
    companyId = companyScope(ctx, null)!;
  }
  const company = await companiesRepo(s.db).findById(companyId);
  if (!company) throw new DomainError('validation', 'Company not found', { fields: { company_id: 'Company not found' } });
  // A company's first monitor goes on its status page unless asked otherwise: a page with no
  // public monitor says nothing to anyone. Later ones stay private by default.
  const publicByDefault = input.is_public === undefined && !(await monitorsRepo(s.db).hasShownMonitor(companyId));
  const v0 = await validateMonitor(publicByDefault ? { ...input, is_public: true } : input, null, {
    minInterval: s.config.minCheckIntervalSeconds,
    allowPrivate: s.config.allowPrivateTargets,
    resolve: s.monitoring?.resolve,
    secretsKey: monitorSecretsKey(s.config),
    locations: await locationChoice(ctx, companyId),
  });
  const v = await withLinks(ctx, companyId, null, v0, null);
  await requireKnownSecrets(s.db, companyId, v.config);
  await requireDestinationBudget(s, v.destination ?? null, v.intervalSeconds);
  const limit = planLimits(company.plan).monitors;
  const now = s.now();
  const id = newId();
  const push = KINDS[v.type].heartbeat ? newPushToken() : null;
  // The monitor, its immediate check and its audit row commit together or not at all.
  const inserted = await withTransaction(s.db, async (tx) => {
    await requireKindQuota(tx, company.plan, companyId, v.type, null);
    const done = await monitorsRepo(tx).insertWithinLimit(
      {
        ...newMonitorRow({
          id,
          company_id: companyId,
          name: v.name,
          type: v.type,
          config: JSON.stringify(v.config),
          is_public: v.isPublic,
          interval_seconds: v.intervalSeconds,
          timeout_seconds: v.timeoutSeconds,
          confirmations: v.confirmations,
          push_token_hash: push?.hash ?? null,
          next_due_at: firstDueAt(ctx, now, v.intervalSeconds),
          created_at: now,
        }),
        sla_target: v.slaTarget,
        is_critical: v.isCritical,
        destination_host: v.destination?.host ?? null,
        locations: v.locations === null ? null : JSON.stringify(v.locations),
        quorum: v.quorum,
        run_local: v.runLocal ?? true,
        parents: v.parents.length ? JSON.stringify(v.parents) : null,
      },
      limit,
    );
    if (!done) return false;
    await requestImmediateCheck(ctx, { id, company_id: companyId }, tx);
    await auditFromCtx(tx, ctx, 'monitor_create', { monitor_id: id, name: v.name, type: v.type }, undefined, companyId);
    return true;
  });
  if (!inserted) throw planFull(isPlanName(company.plan) ? company.plan : 'starter', limit);
  return { ...(await getMonitor(ctx, id)), push_url: push ? pushUrl(ctx, push.token) : null };
}

/** What a monitor of the company may name: the locations it sees, and its default set. */
async function locationChoice(ctx: Ctx, companyId: string) {
  const catalog = await locationCatalog(ctx.services.db, [companyId], ctx.services.now());
  const known = catalog.known(companyId);
  return { known, companyDefault: catalog.defaultOf(companyId), browsers: await browserSlugs(ctx.services.db, known, ctx.services.now()) };
}

export async function updateMonitor(ctx: Ctx, id: string, input: MonitorInput) {
  requirePermission(ctx, 'update', 'monitors');
  const s = ctx.services;
  const m = await load(ctx, id);
  if (input.type && input.type !== m.type)
    throw new DomainError('validation', 'The type of a monitor cannot change; create a new monitor instead', {
      fields: { type: 'Type cannot change' },
    });
  const before = validOf(m);
  const v0 = await validateMonitor(input, before, {
    minInterval: s.config.minCheckIntervalSeconds,
    allowPrivate: s.config.allowPrivateTargets,
    resolve: s.monitoring?.resolve,
    secretsKey: monitorSecretsKey(s.config),
    locations: await locationChoice(ctx, m.company_id),
  });
  const v = await withLinks(ctx, m.company_id, id, v0, before);
  await requireKnownSecrets(s.db, m.company_id, v.config);
  const destination = v.destination ?? null;
  // A checked monitor may not take a host over the budget: a new host, or more checks to its own.
  const live = !m.is_paused && m.archived_at === null;
  const more = destination?.host !== m.destination_host || checksPerMinute(v.intervalSeconds) > checksPerMinute(m.interval_seconds);
  if (live && more) await requireDestinationBudget(s, destination, v.intervalSeconds, id);
  const now = s.now();
  await withTransaction(s.db, async (tx) => {
    await monitorsRepo(tx).update(id, m.company_id, {
      name: v.name,
      destination_host: destination?.host ?? null,
      config: JSON.stringify(v.config),
      is_public: v.isPublic,
      interval_seconds: v.intervalSeconds,
      // Its next slot under the new interval; sooner only as an immediate check within the limits.
      timeout_seconds: v.timeoutSeconds,
      confirmations: v.confirmations,
      sla_target: v.slaTarget,
      is_critical: v.isCritical,
      locations: v.locations === null ? null : JSON.stringify(v.locations),
      quorum: v.quorum,
      run_local: v.runLocal ?? m.run_local,
      parents: v.parents.length ? JSON.stringify(v.parents) : null,
      next_due_at: Math.min(Number(m.next_due_at), now + v.intervalSeconds * 1000),
      updated_at: now,
    });
    // Marked critical or not: its open automatic incident is regraded with it (the page reads it).
    if (v.isCritical !== m.is_critical) {
      const incidents = incidentsRepo(tx);
      for (const i of await incidents.openAutomaticForMonitors([id]))
        await incidents.update(i.id, { severity: incidentSeverity(v.isCritical), updated_at: now });
    }
    if (!m.is_paused) await requestImmediateCheck(ctx, m, tx);
    await auditFromCtx(tx, ctx, 'monitor_update', { monitor_id: id, fields: Object.keys(input) }, undefined, m.company_id);
  });
  return getMonitor(ctx, id);
}

export async function deleteMonitor(ctx: Ctx, id: string): Promise<void> {
  requirePermission(ctx, 'delete', 'monitors');
  const m = await load(ctx, id);
  await withTransaction(ctx.services.db, async (tx) => {
    await monitorsRepo(tx).delete(id, m.company_id);
    await auditFromCtx(tx, ctx, 'monitor_delete', { monitor_id: id, name: m.name }, undefined, m.company_id);
  });
}

/**
 * Archives a monitor: kept with its history, but no longer checked, listed, shown on the
 * public page or counted against the plan. The company admin's way to retire a monitor, since
 * only super admins delete.
 */
export async function archiveMonitor(ctx: Ctx, id: string) {
  const actor = requirePermission(ctx, 'update', 'monitors', 'archive monitors');
  const m = await load(ctx, id);
  if (m.archived_at === null) {
    const now = ctx.services.now();
    await withTransaction(ctx.services.db, async (tx) => {
      await monitorsRepo(tx).update(id, m.company_id, { archived_at: now, lease_owner: null, lease_expires_at: null, updated_at: now });
      // No check will resolve the engine's open incident now: it ends with the archiving.
      const incidents = incidentsRepo(tx);
      for (const open of await incidents.openAutomaticForMonitors([id])) {
        await incidents.update(open.id, { status: 'resolved', resolved_at: now, updated_at: now });
        await incidents.addUpdate({
          id: newId(),
          incident_id: open.id,
          company_id: m.company_id,
          status: 'resolved',
          message: `${m.name} was archived and is no longer checked.`,
          created_by: actor.userId,
          created_at: now,
        });
      }
      await auditFromCtx(tx, ctx, 'monitor_update', { monitor_id: id, name: m.name, archived: true }, undefined, m.company_id);
    });
  }
  return getMonitor(ctx, id);
}

/** Brings an archived monitor back, its state afresh, unless the plan is full. */
export async function restoreMonitor(ctx: Ctx, id: string) {
  requirePermission(ctx, 'update', 'monitors', 'restore monitors');
  const s = ctx.services;
  const m = await load(ctx, id);
  if (m.archived_at === null) throw new DomainError('conflict', 'This monitor is not archived.');
  const plan = isPlanName(m.company_plan) ? m.company_plan : 'starter';
  const limit = planLimits(plan).monitors;
  if (!m.is_paused) await requireDestinationBudget(s, storedDestination(m), m.interval_seconds, m.id);
  const now = s.now();
  const restored = await withTransaction(s.db, async (tx) => {
    if (!m.is_paused) await requireKindQuota(tx, m.company_plan, m.company_id, m.type, m.id);
    const done = await monitorsRepo(tx).restoreWithinLimit(id, m.company_id, limit, {
      status: 'unknown',
      status_since: now,
      pending_status: null,
      pending_count: 0,
      next_due_at: firstDueAt(ctx, now, m.interval_seconds),
      updated_at: now,
    });
    if (!done) return false;
    if (!m.is_paused) await requestImmediateCheck(ctx, m, tx);
    await auditFromCtx(tx, ctx, 'monitor_update', { monitor_id: id, name: m.name, archived: false }, undefined, m.company_id);
    return true;
  });
  if (!restored) throw planFull(plan, limit);
  return getMonitor(ctx, id);
}

export async function setPaused(ctx: Ctx, id: string, paused: boolean) {
  requirePermission(ctx, 'update', 'monitors', 'pause or resume monitors');
  const s = ctx.services;
  const m = await load(ctx, id);
  if (!paused && m.is_paused && m.archived_at === null) await requireDestinationBudget(s, storedDestination(m), m.interval_seconds, m.id);
  const now = s.now();
  await withTransaction(s.db, async (tx) => {
    if (!paused && m.is_paused && m.archived_at === null) await requireKindQuota(tx, m.company_plan, m.company_id, m.type, m.id);
    await monitorsRepo(tx).update(
      id,
      m.company_id,
      paused
        ? { is_paused: true, updated_at: now }
        : // Resumed: state starts afresh and the first check runs at once (within the limits) or soon.
          {
            is_paused: false,
            status: 'unknown',
            status_since: now,
            pending_status: null,
            pending_count: 0,
            next_due_at: firstDueAt(ctx, now, m.interval_seconds),
            updated_at: now,
          },
    );
    if (!paused) await requestImmediateCheck(ctx, m, tx);
    await auditFromCtx(tx, ctx, paused ? 'monitor_pause' : 'monitor_resume', { monitor_id: id, name: m.name }, undefined, m.company_id);
  });
  return getMonitor(ctx, id);
}

export async function listChecks(ctx: Ctx, id: string, q: { limit?: number; before?: string; location?: string }) {
  requirePermission(ctx, 'view', 'monitors');
  const m = await load(ctx, id);
  const before = q.before ? Date.parse(q.before) : undefined;
  if (before !== undefined && Number.isNaN(before)) throw new DomainError('validation', 'before must be a date-time');
  // Results name their location by number; the company sees slugs (another company's private
  // location, like one that does not exist, is not a filter it can give).
  const known = (await locationCatalog(ctx.services.db, [m.company_id], ctx.services.now())).known(m.company_id);
  const slugOf = new Map([...known.values()].map((r) => [r.num, r.slug]));
  let location: number | undefined;
  if (q.location !== undefined) {
    location = known.get(q.location)?.num;
    if (location === undefined)
      throw new DomainError('validation', `"${q.location}" is not a location of yours.`, { fields: { location: 'Unknown location' } });
  }
  const rows = await checksRepo(ctx.services.db).list(m.id, { limit: q.limit ?? 100, before, location });
  return rows.map((r) => ({
    checked_at: toIso(r.checked_at),
    location: slugOf.get(Number(r.location ?? 0)) ?? null,
    status: r.status,
    response_time: r.response_time_ms,
    http_code: r.http_code,
    error: r.error,
    timings: r.timings ? (JSON.parse(r.timings) as Record<string, number>) : null,
    cert_expires_at: toIsoOrNull(r.cert_expires_at),
  }));
}

/** Uptime over 24 h (hourly rollups) and 7/30/90 days (daily rollups); never raw results. */
export async function getUptime(ctx: Ctx, id: string) {
  requirePermission(ctx, 'view', 'monitors');
  const m = await load(ctx, id);
  const now = ctx.services.now();
  const r = rollupsRepo(ctx.services.db);
  const hourly = await r.range('hourly', [m.id], hourStart(now) - 23 * HOUR_MS, now + 1);
  const span = async (days: number) => {
    const rows = await r.range('daily', [m.id], dayStart(now) - (days - 1) * DAY_MS, now + 1);
    return {
      uptime: uptimePercent(rows),
      checks: rows.reduce((a, x) => a + x.checks, 0),
      failures: rows.reduce((a, x) => a + x.failures, 0),
    };
  };
  const h24 = {
    uptime: uptimePercent(hourly),
    checks: hourly.reduce((a, x) => a + x.checks, 0),
    failures: hourly.reduce((a, x) => a + x.failures, 0),
  };
  const [d7, d30, d90] = [await span(7), await span(30), await span(90)];
  // The sum holds exactly the timed responses the sketch counts (not failures, push beats
  // without a time), so divide by that count, not by checks.
  const timed = hourly.reduce((a, x) => a + LatencySketch.parse(x.response_sketch).total, 0);
  const avg = timed > 0 ? hourly.reduce((a, x) => a + x.sum_response_ms, 0) / timed : null;
  return {
    monitor_id: m.id,
    '24h': h24,
    '7d': d7,
    '30d': d30,
    '90d': d90,
    avg_response_time_24h: avg === null ? null : Math.round(avg * 100) / 100,
  };
}

export async function getSummary(ctx: Ctx, tenant?: string) {
  requirePermission(ctx, 'view', 'monitors');
  const scope = companyScope(ctx, tenant);
  const db = ctx.services.db;
  const s = await monitorsRepo(db).summary(scope, ctx.services.now());
  const criticalAlerts = await incidentsRepo(db).countOpenCritical(scope);
  return { up: s.up, down: s.down, paused: s.paused, total: s.total, criticalAlerts, lastCheck: toIsoOrNull(s.lastCheck) };
}

/** A new push URL for the monitor; the one shown before stops working. */
export async function rotatePushToken(ctx: Ctx, id: string) {
  requirePermission(ctx, 'update', 'monitors', 'change monitors');
  const m = await load(ctx, id);
  if (!KINDS[m.type].heartbeat) throw new DomainError('validation', 'Only push monitors have a push URL');
  const push = newPushToken();
  await withTransaction(ctx.services.db, async (tx) => {
    await monitorsRepo(tx).update(id, m.company_id, { push_token_hash: push.hash, updated_at: ctx.services.now() });
    await auditFromCtx(tx, ctx, 'monitor_update', { monitor_id: id, fields: ['push_url'] }, undefined, m.company_id);
  });
  return { ...(await getMonitor(ctx, id)), push_url: pushUrl(ctx, push.token) };
}

/**
 * A push monitor's heartbeat (no sign-in: the secret token is the credential). A suspended
 * company's monitors answer as unknown tokens do and record nothing.
 */
export async function recordHeartbeat(ctx: Ctx, token: string): Promise<void> {
  const db = ctx.services.db;
  const m = await monitorsRepo(db).findByPushTokenHash(hashPushToken(token));
  if (!m || !KINDS[m.type].heartbeat) throw notFound('Push monitor');
  const now = ctx.services.now();
  // A monitor that was down is judged again at once rather than at its next slot.
  const judgeNow = m.status !== 'operational' && !m.is_paused;
  await monitorsRepo(db).recordPush(m.id, now, judgeNow);
  if (judgeNow) ctx.services.monitoring?.engine?.poke();
}
