// Incident verbs: the dashboard's recent list, list/get, manual incidents and their updates.
// Automatic incidents are opened and resolved in automatic.ts, when the engine records results.
import { companiesRepo } from '../../db/repositories/companies-repo.ts';
import { incidentsRepo, type IncidentWithTenant } from '../../db/repositories/incidents-repo.ts';
import { incidentSignalsRepo, type IncidentSignalRow } from '../../db/repositories/incident-signals-repo.ts';
import type { IncidentStatus } from '../../db/schema/monitoring.ts';
import { withTransaction } from '../../db/scope.ts';
import { enqueueIncidentNotice } from '../../notify/outbox/subscriber-enqueue.ts';
import { isUniqueViolation } from '../../db/unique-violation.ts';
import { companyScope, requirePermission } from '../authz.ts';
import type { Ctx } from '../context.ts';
import { DomainError, notFound } from '../errors.ts';
import { newId, toIso, toIsoOrNull } from '../ids.ts';
import { plainTextProblem } from '../../../lib/plain-text.ts';
import { affectedMonitors } from '../monitors/affected-monitors.ts';
import { cleanTranslations, presentTranslations } from '../text-translations.ts';
import { impactOf, severityOfImpact, type Impact, type Severity } from '../../../lib/status.ts';

/**
 * The severity to store: the impact given (Statuspage's word) decides, else the severity older
 * clients send. Both read as one impact (lib/status.ts INCIDENT_IMPACT).
 */
function severityOf(input: { severity?: Severity; impact?: Impact }, current?: Severity): Severity | undefined {
  return input.impact ? severityOfImpact(input.impact, input.severity ?? current) : input.severity;
}

/** Refuses control characters: the title and updates go out in feeds and on the status page. */
function checkText(texts: Record<string, [label: string, value: string | undefined]>): void {
  const fields: Record<string, string> = {};
  for (const [key, [label, value]] of Object.entries(texts)) {
    const problem = plainTextProblem(label, value);
    if (problem) fields[key] = problem;
  }
  if (Object.keys(fields).length) throw new DomainError('validation', Object.values(fields)[0], { fields });
}

export function presentSummary(i: IncidentWithTenant) {
  return {
    id: i.id,
    title: i.title,
    severity: i.severity,
    tenantId: i.company_id,
    tenantName: i.tenant_name,
    timestamp: toIso(i.started_at),
    status: i.status,
  };
}

type LinkedMonitor = { id: string; name: string };

function present(i: IncidentWithTenant, linked: LinkedMonitor[] | undefined) {
  // monitor_id counts too: rows written with it alone (older code) are about that monitor.
  const monitors = [...(linked ?? [])];
  if (i.monitor_id && !monitors.some((m) => m.id === i.monitor_id)) monitors.unshift({ id: i.monitor_id, name: i.monitor_name ?? '' });
  return {
    id: i.id,
    company_id: i.company_id,
    tenant_name: i.tenant_name,
    monitor_id: i.monitor_id,
    monitor_name: i.monitor_name,
    monitor_ids: monitors.map((m) => m.id),
    monitors,
    title: i.title,
    title_translations: presentTranslations(i.title_translations),
    severity: i.severity,
    impact: impactOf(i.severity),
    status: i.status,
    is_public: i.is_public,
    automatic: i.created_by === null,
    postmortem: i.postmortem ?? null,
    started_at: toIso(i.started_at),
    resolved_at: toIsoOrNull(i.resolved_at),
    acknowledged_at: toIsoOrNull(i.acknowledged_at),
    acknowledged_by: i.acknowledged_by ? { id: i.acknowledged_by, name: i.acknowledged_by_name ?? '' } : null,
    acknowledged_via: i.acknowledged_via,
    down_where: downWhereOf(i.down_where),
    created_at: toIso(i.created_at),
    updated_at: toIso(i.updated_at),
  };
}

/** Where the monitor was down when the incident opened (a monitor checked from several locations); null otherwise. */
function downWhereOf(text: string | null | undefined): { text: string; down: string[]; up: string[]; absent: string[] } | null {
  if (!text) return null;
  try {
    const w = JSON.parse(text) as { text?: unknown; down?: unknown; up?: unknown; absent?: unknown };
    const list = (v: unknown) => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);
    return typeof w.text === 'string' ? { text: w.text, down: list(w.down), up: list(w.up), absent: list(w.absent) } : null;
  } catch {
    return null;
  }
}

/** A related signal in the incident's thread (notify/related-signals.ts). */
function presentSignal(s: IncidentSignalRow) {
  return {
    id: s.id,
    type: s.type as 'ssl_warning',
    severity: s.severity as 'critical' | 'high' | 'medium' | 'low' | 'info',
    title: s.title,
    message: s.message,
    created_at: toIso(s.created_at),
  };
}

export async function recentIncidents(ctx: Ctx, q: { limit?: number; tenant?: string }) {
  requirePermission(ctx, 'view', 'monitors', 'view incidents');
  const scope = companyScope(ctx, q.tenant);
  const rows = await incidentsRepo(ctx.services.db).list(scope, { limit: q.limit ?? 10 });
  return rows.map(presentSummary);
}

export async function listIncidents(
  ctx: Ctx,
  q: {
    tenant?: string;
    status?: 'open' | 'resolved';
    monitor_id?: string;
    severity?: Severity;
    automatic?: boolean;
    limit?: number;
    offset?: number;
  },
) {
  requirePermission(ctx, 'view', 'monitors', 'view incidents');
  const scope = companyScope(ctx, q.tenant);
  const rows = await incidentsRepo(ctx.services.db).list(scope, {
    limit: q.limit ?? 50,
    offset: q.offset,
    status: q.status,
    monitorId: q.monitor_id,
    severity: q.severity,
    automatic: q.automatic,
  });
  const linked = await incidentsRepo(ctx.services.db).monitorsOf(rows.map((r) => r.id));
  return rows.map((r) => present(r, linked.get(r.id)));
}

export async function getIncident(ctx: Ctx, id: string) {
  requirePermission(ctx, 'view', 'monitors', 'view incidents');
  const repo = incidentsRepo(ctx.services.db);
  const i = await repo.findById(id, companyScope(ctx, null));
  if (!i) throw notFound('Incident');
  const updates = await repo.updates(i.id);
  const linked = await repo.monitorsOf([i.id]);
  const signals = await incidentSignalsRepo(ctx.services.db).ofIncident(i.id);
  return {
    ...present(i, linked.get(i.id)),
    updates: updates.map((u) => ({
      id: u.id,
      status: u.status,
      message: u.message,
      message_translations: presentTranslations(u.message_translations),
      created_at: toIso(u.created_at),
    })),
    signals: signals.map(presentSignal),
  };
}

export async function createIncident(
  ctx: Ctx,
  input: {
    title: string;
    severity?: Severity;
    impact?: Impact;
    status?: IncidentStatus;
    message: string;
    monitor_id?: string | null;
    monitor_ids?: string[];
    is_public?: boolean;
    company_id?: string | null;
    title_translations?: Record<string, string> | null;
    message_translations?: Record<string, string> | null;
  },
) {
  const actor = requirePermission(ctx, 'create', 'monitors', 'manage incidents');
  checkText({ title: ['Title', input.title], message: ['Message', input.message] });
  const titleTranslations = cleanTranslations('title_translations', 'Title', input.title_translations, 300) ?? null;
  const messageTranslations = cleanTranslations('message_translations', 'Message', input.message_translations, 5000) ?? null;
  const s = ctx.services;
  const companyId = actor.role === 'super_admin' ? input.company_id : companyScope(ctx, null);
  if (!companyId)
    throw new DomainError('validation', 'Choose the company this incident belongs to', { fields: { company_id: 'Company is required' } });
  if (!(await companiesRepo(s.db).findById(companyId)))
    throw new DomainError('validation', 'Company not found', { fields: { company_id: 'Company not found' } });
  const monitorIds = await affectedMonitors(ctx, companyId, input);
  const primary = monitorIds[0] ?? null;
  const title = input.title.trim();
  if (!title) throw new DomainError('validation', 'Title is required', { fields: { title: 'Title is required' } });
  const severity = severityOf(input);
  if (!severity) throw new DomainError('validation', 'Impact is required', { fields: { impact: 'Impact is required' } });
  const status = input.status ?? 'investigating';
  const now = s.now();
  const id = newId();
  await withTransaction(s.db, async (tx) => {
    const repo = incidentsRepo(tx);
    if (primary && status !== 'resolved' && (await repo.findOpenForMonitor(primary))) {
      throw new DomainError('conflict', 'This monitor already has an open incident; post an update to it instead.');
    }
    await repo.insert({
      id,
      company_id: companyId,
      monitor_id: primary,
      title,
      severity,
      status,
      is_public: input.is_public !== false,
      started_at: now,
      resolved_at: status === 'resolved' ? now : null,
      created_by: actor.userId,
      created_at: now,
      updated_at: now,
      title_translations: titleTranslations,
    });
    const update = { id: newId(), status, message: input.message.trim() || title, message_translations: messageTranslations };
    await repo.addUpdate({ ...update, incident_id: id, company_id: companyId, created_by: actor.userId, created_at: now });
    await repo.setMonitors(id, companyId, monitorIds);
    const event = status === 'resolved' ? 'incident.resolved' : 'incident.created';
    await enqueueIncidentNotice(
      tx,
      { incidentId: id, updateId: update.id, event, message: update.message, status, messageTranslations: update.message_translations },
      now,
    );
  });
  return getIncident(ctx, id);
}

export async function addIncidentUpdate(
  ctx: Ctx,
  id: string,
  input: { status: IncidentStatus; message: string; message_translations?: Record<string, string> | null },
) {
  const actor = requirePermission(ctx, 'update', 'monitors', 'manage incidents');
  checkText({ message: ['Message', input.message] });
  const messageTranslations = cleanTranslations('message_translations', 'Message', input.message_translations, 5000) ?? null;
  const s = ctx.services;
  const i = await incidentsRepo(s.db).findById(id, companyScope(ctx, null));
  if (!i) throw notFound('Incident');
  if (i.resolved_at !== null) throw new DomainError('conflict', 'This incident is resolved; open a new incident instead.');
  const message = input.message.trim();
  if (!message) throw new DomainError('validation', 'Message is required', { fields: { message: 'Message is required' } });
  const now = s.now();
  await withTransaction(s.db, async (tx) => {
    const repo = incidentsRepo(tx);
    const updateId = newId();
    await repo.addUpdate({
      id: updateId,
      incident_id: id,
      company_id: i.company_id,
      status: input.status,
      message,
      created_by: actor.userId,
      created_at: now,
      message_translations: messageTranslations,
    });
    await repo.update(id, { status: input.status, updated_at: now, ...(input.status === 'resolved' ? { resolved_at: now } : {}) });
    const event = input.status === 'resolved' ? 'incident.resolved' : 'incident.updated';
    await enqueueIncidentNotice(tx, { incidentId: id, updateId, event, message, status: input.status, messageTranslations }, now);
  });
  return getIncident(ctx, id);
}

/**
 * Edits what an incident says: its title, impact, visibility, and the postmortem, which exists
 * only after resolution (it is shown under the resolved incident on the public page).
 */
export async function editIncident(
  ctx: Ctx,
  id: string,
  input: {
    title?: string;
    severity?: Severity;
    impact?: Impact;
    is_public?: boolean;
    postmortem?: string | null;
    monitor_ids?: string[];
    title_translations?: Record<string, string> | null;
  },
) {
  requirePermission(ctx, 'update', 'monitors', 'manage incidents');
  checkText({ title: ['Title', input.title], postmortem: ['Postmortem', input.postmortem ?? undefined] });
  const titleTranslations = cleanTranslations('title_translations', 'Title', input.title_translations, 300);
  const s = ctx.services;
  const repo = incidentsRepo(s.db);
  const i = await repo.findById(id, companyScope(ctx, null));
  if (!i) throw notFound('Incident');
  const title = input.title?.trim();
  if (input.title !== undefined && !title)
    throw new DomainError('validation', 'Title is required', { fields: { title: 'Title is required' } });
  const postmortem = input.postmortem === undefined ? undefined : input.postmortem?.trim() || null;
  if (postmortem !== undefined && i.resolved_at === null)
    throw new DomainError('conflict', 'A postmortem is written after the incident is resolved.');
  const monitorIds = input.monitor_ids === undefined ? undefined : await affectedMonitors(ctx, i.company_id, input);
  // On an open automatic incident the impact is also what its monitor's outage counts as on the page.
  const severity = severityOf(input, i.severity);
  // An automatic incident stays about the monitor the engine opened it for; a manual one's
  // monitor_id follows the first of its monitors.
  const primary = monitorIds === undefined || i.created_by === null ? {} : { monitor_id: monitorIds[0] ?? null };
  if (i.created_by === null && i.monitor_id && monitorIds && !monitorIds.includes(i.monitor_id)) monitorIds.unshift(i.monitor_id);
  await withTransaction(s.db, async (tx) => {
    const r = incidentsRepo(tx);
    await r.update(id, {
      ...primary,
      updated_at: s.now(),
      ...(title ? { title } : {}),
      ...(severity ? { severity } : {}),
      ...(input.is_public === undefined ? {} : { is_public: input.is_public }),
      ...(postmortem === undefined ? {} : { postmortem }),
      ...(titleTranslations === undefined ? {} : { title_translations: titleTranslations }),
    });
    if (monitorIds) await r.setMonitors(id, i.company_id, monitorIds);
  }).catch((e: unknown) => {
    if (isUniqueViolation(e)) throw new DomainError('conflict', 'That monitor already has an open incident; post an update to it instead.');
    throw e;
  });
  return getIncident(ctx, id);
}
