// Incident templates (issue 30 item 6): a company's named, prepared texts for manual incidents and
// maintenance windows, chosen with "Use template" when writing one (the console fills the form;
// nothing is written from a template without the person saving the form). Any member reads
// them; company admins create, replace and delete them, each change audited as a settings change.
import { isUniqueViolation } from '../../db/unique-violation.ts';
import { incidentTemplatesRepo, type IncidentTemplateRow } from '../../db/repositories/incident-templates-repo.ts';
import { companiesRepo } from '../../db/repositories/companies-repo.ts';
import { withTransaction } from '../../db/scope.ts';
import { plainTextProblem } from '../../../lib/plain-text.ts';
import { auditFromCtx } from '../audit/record.ts';
import { companyScope, requirePermission } from '../authz.ts';
import type { Ctx } from '../context.ts';
import { DomainError, notFound } from '../errors.ts';
import { newId, toIso } from '../ids.ts';

export const TEMPLATE_KINDS = ['incident', 'maintenance'] as const;
export type TemplateKind = (typeof TEMPLATE_KINDS)[number];
const IMPACTS = ['minor', 'major', 'critical'] as const;
/** Enough for every kind of outage and every recurring window a team prepares words for. */
export const MAX_TEMPLATES_PER_COMPANY = 100;

export interface TemplateInput {
  name: string;
  kind: TemplateKind;
  title: string;
  message?: string;
  impact?: (typeof IMPACTS)[number] | null;
  monitor_ids?: string[];
  company_id?: string | null;
}

export interface TemplateView {
  id: string;
  company_id: string;
  name: string;
  kind: TemplateKind;
  title: string;
  message: string;
  impact: (typeof IMPACTS)[number] | null;
  monitor_ids: string[];
  created_at: string;
  updated_at: string;
}

const invalid = (field: string, message: string) => new DomainError('validation', message, { fields: { [field]: message } });

async function present(ctx: Ctx, rows: IncidentTemplateRow[]): Promise<TemplateView[]> {
  const repo = incidentTemplatesRepo(ctx.services.db);
  const byCompany = new Map<string, string[]>();
  const idsOf = (r: IncidentTemplateRow) => JSON.parse(r.monitor_ids) as string[];
  for (const r of rows) byCompany.set(r.company_id, [...(byCompany.get(r.company_id) ?? []), ...idsOf(r)]);
  // A monitor deleted since the template was saved is left out: the form would refuse it.
  const existing = new Map<string, Set<string>>();
  for (const [companyId, ids] of byCompany) existing.set(companyId, await repo.existingMonitorIds(companyId, [...new Set(ids)]));
  return rows.map((r) => ({
    id: r.id,
    company_id: r.company_id,
    name: r.name,
    kind: r.kind,
    title: r.title,
    message: r.message,
    impact: r.impact,
    monitor_ids: idsOf(r).filter((id) => existing.get(r.company_id)?.has(id)),
    created_at: toIso(r.created_at),
    updated_at: toIso(r.updated_at),
  }));
}

/** The input checked, each refusal naming its field; the monitors must be the company's. */
async function validInput(ctx: Ctx, companyId: string, input: TemplateInput) {
  const fields: Record<string, string> = {};
  const name = (input.name ?? '').trim();
  const title = (input.title ?? '').trim();
  const message = (input.message ?? '').trim();
  if (!name) fields.name = 'Name is required';
  if (!title) fields.title = 'Title is required';
  for (const [key, label, value] of [
    ['name', 'Name', name],
    ['title', 'Title', title],
    ['message', 'Message', message],
  ] as const) {
    const problem = plainTextProblem(label, value);
    if (problem && !fields[key]) fields[key] = problem;
  }
  if (!TEMPLATE_KINDS.includes(input.kind)) fields.kind = 'Choose incident or maintenance';
  const impact = input.impact ?? null;
  if (input.kind === 'incident' && impact === null) fields.impact = 'Choose the impact of the incident';
  if (input.kind === 'maintenance' && impact !== null) fields.impact = 'A maintenance template has no impact';
  if (impact !== null && !IMPACTS.includes(impact)) fields.impact = 'Impact is minor, major or critical';
  const monitorIds = [...new Set(input.monitor_ids ?? [])];
  if (monitorIds.length > 0) {
    const known = await incidentTemplatesRepo(ctx.services.db).existingMonitorIds(companyId, monitorIds);
    if (monitorIds.some((id) => !known.has(id))) fields.monitor_ids = 'Monitor not found';
  }
  if (Object.keys(fields).length) throw new DomainError('validation', Object.values(fields)[0], { fields });
  return { name, kind: input.kind, title, message, impact, monitor_ids: JSON.stringify(monitorIds) };
}

const nameTaken = (name: string) =>
  new DomainError('conflict', `A template named "${name}" exists already; choose another name.`, {
    fields: { name: 'A template with this name exists already' },
  });

export async function listTemplates(ctx: Ctx, q: { tenant?: string; kind?: TemplateKind } = {}): Promise<TemplateView[]> {
  requirePermission(ctx, 'view', 'monitors', 'view incident templates');
  const rows = await incidentTemplatesRepo(ctx.services.db).list(companyScope(ctx, q.tenant ?? null), q.kind);
  return present(ctx, rows);
}

async function ownTemplate(ctx: Ctx, id: string): Promise<IncidentTemplateRow> {
  const row = await incidentTemplatesRepo(ctx.services.db).find(id, companyScope(ctx, null));
  if (!row) throw notFound('Template');
  return row;
}

export async function getTemplate(ctx: Ctx, id: string): Promise<TemplateView> {
  requirePermission(ctx, 'view', 'monitors', 'view incident templates');
  return (await present(ctx, [await ownTemplate(ctx, id)]))[0];
}

export async function createTemplate(ctx: Ctx, input: TemplateInput): Promise<TemplateView> {
  const actor = requirePermission(ctx, 'create', 'monitors', 'create incident templates');
  const s = ctx.services;
  const companyId = actor.role === 'super_admin' ? input.company_id : companyScope(ctx, null);
  if (!companyId) throw invalid('company_id', 'Choose the company this template belongs to');
  if (!(await companiesRepo(s.db).findById(companyId))) throw invalid('company_id', 'Company not found');
  const v = await validInput(ctx, companyId, input);
  const now = s.now();
  const row: IncidentTemplateRow = { id: newId(), company_id: companyId, ...v, created_at: now, updated_at: now };
  try {
    await withTransaction(s.db, async (tx) => {
      const repo = incidentTemplatesRepo(tx);
      if ((await repo.countOf(companyId)) >= MAX_TEMPLATES_PER_COMPANY)
        throw new DomainError('limit_exceeded', `A company may have at most ${MAX_TEMPLATES_PER_COMPANY} templates; delete one first.`);
      await repo.insert(row);
      await auditFromCtx(tx, ctx, 'settings_update', { incident_template: row.id, name: row.name, action: 'create' }, undefined, companyId);
    });
  } catch (e) {
    if (isUniqueViolation(e)) throw nameTaken(v.name);
    throw e;
  }
  return (await present(ctx, [row]))[0];
}

export async function updateTemplate(ctx: Ctx, id: string, input: TemplateInput): Promise<TemplateView> {
  requirePermission(ctx, 'update', 'monitors', 'change incident templates');
  const row = await ownTemplate(ctx, id);
  const v = await validInput(ctx, row.company_id, input);
  const patch = { ...v, updated_at: ctx.services.now() };
  try {
    await withTransaction(ctx.services.db, async (tx) => {
      await incidentTemplatesRepo(tx).update(row.id, row.company_id, patch);
      await auditFromCtx(
        tx,
        ctx,
        'settings_update',
        { incident_template: row.id, name: v.name, action: 'update' },
        undefined,
        row.company_id,
      );
    });
  } catch (e) {
    if (isUniqueViolation(e)) throw nameTaken(v.name);
    throw e;
  }
  return (await present(ctx, [{ ...row, ...patch }]))[0];
}

export async function deleteTemplate(ctx: Ctx, id: string): Promise<void> {
  // Company admins may not delete monitors, but a template is their own wording: changing it covers removing it.
  requirePermission(ctx, 'update', 'monitors', 'delete incident templates');
  const row = await ownTemplate(ctx, id);
  await withTransaction(ctx.services.db, async (tx) => {
    await incidentTemplatesRepo(tx).remove(row.id, row.company_id);
    await auditFromCtx(
      tx,
      ctx,
      'settings_update',
      { incident_template: row.id, name: row.name, action: 'delete' },
      undefined,
      row.company_id,
    );
  });
}
