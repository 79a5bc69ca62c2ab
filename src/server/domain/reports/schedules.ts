// Scheduled SLA report verbs. Company users read their company's schedules (`reports: view`);
// company admins create and update them (disable instead of delete); only super admins delete.
import { isEmail } from '../../../lib/formats.ts';
import { companiesRepo } from '../../db/repositories/companies-repo.ts';
import { reportSchedulesRepo, type ReportScheduleRow } from '../../db/repositories/report-schedules-repo.ts';
import type { ReportFileFormat, ReportFrequency } from '../../db/schema/alerts.ts';
import { companyScope, requirePermission } from '../authz.ts';
import type { Ctx } from '../context.ts';
import { DomainError, notFound } from '../errors.ts';
import { newId, toIso } from '../ids.ts';

export const MAX_RECIPIENTS = 20;
export const MAX_SCHEDULES_PER_COMPANY = 20;
// Stricter than isEmail: nothing a mail header could read as a second address or a display name.
const PLAIN_ADDRESS = /^[A-Za-z0-9._%+'-]+@[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)+$/;

export interface ScheduleInput {
  frequency?: ReportFrequency;
  recipients?: string[];
  format?: ReportFileFormat;
  enabled?: boolean;
  company_id?: string | null;
}

const invalid = (field: string, message: string) => new DomainError('validation', message, { fields: { [field]: message } });

export function presentSchedule(r: ReportScheduleRow) {
  return {
    id: r.id,
    company_id: r.company_id,
    frequency: r.frequency,
    recipients: JSON.parse(r.recipients) as string[],
    format: r.format,
    enabled: r.enabled,
    last_sent_period: r.last_sent_period,
    created_at: toIso(r.created_at),
    updated_at: toIso(r.updated_at),
  };
}

function recipientsOf(list: string[]): string {
  const clean = [...new Set(list.map((s) => s.trim().toLowerCase()))].filter(Boolean);
  if (clean.length === 0) throw invalid('recipients', 'Add at least one e-mail address');
  if (clean.length > MAX_RECIPIENTS) throw invalid('recipients', `At most ${MAX_RECIPIENTS} addresses`);
  const bad = clean.find((a) => a.length > 254 || !isEmail(a) || !PLAIN_ADDRESS.test(a));
  if (bad !== undefined) throw invalid('recipients', `Not an e-mail address: ${bad.slice(0, 80)}`);
  return JSON.stringify(clean);
}

async function ownSchedule(ctx: Ctx, id: string): Promise<ReportScheduleRow> {
  const row = await reportSchedulesRepo(ctx.services.db).find(id, companyScope(ctx, null));
  if (!row) throw notFound('Report schedule');
  return row;
}

export async function listReportSchedules(ctx: Ctx, q: { tenant?: string }) {
  requirePermission(ctx, 'view', 'reports', 'view report schedules');
  return (await reportSchedulesRepo(ctx.services.db).list(companyScope(ctx, q.tenant))).map(presentSchedule);
}

export async function getReportSchedule(ctx: Ctx, id: string) {
  requirePermission(ctx, 'view', 'reports', 'view report schedules');
  return presentSchedule(await ownSchedule(ctx, id));
}

export async function createReportSchedule(ctx: Ctx, input: ScheduleInput) {
  const actor = requirePermission(ctx, 'create', 'reports', 'create report schedules');
  const db = ctx.services.db;
  const companyId = actor.role === 'super_admin' ? input.company_id : companyScope(ctx, null);
  if (!companyId) throw invalid('company_id', 'Choose the company this schedule belongs to');
  if (!(await companiesRepo(db).findById(companyId))) throw invalid('company_id', 'Company not found');
  const repo = reportSchedulesRepo(db);
  if ((await repo.countOf(companyId)) >= MAX_SCHEDULES_PER_COMPANY)
    throw new DomainError('limit_exceeded', `A company has at most ${MAX_SCHEDULES_PER_COMPANY} report schedules`);
  const now = ctx.services.now();
  const id = newId();
  await repo.insert({
    id,
    company_id: companyId,
    frequency: input.frequency ?? 'monthly',
    recipients: recipientsOf(input.recipients ?? []),
    format: input.format ?? 'pdf',
    enabled: input.enabled !== false,
    last_sent_period: null,
    created_at: now,
    updated_at: now,
  });
  return presentSchedule((await repo.find(id, companyId))!);
}

export async function updateReportSchedule(ctx: Ctx, id: string, input: ScheduleInput) {
  requirePermission(ctx, 'update', 'reports', 'change report schedules');
  const row = await ownSchedule(ctx, id);
  const repo = reportSchedulesRepo(ctx.services.db);
  await repo.update(id, {
    ...(input.frequency ? { frequency: input.frequency } : {}),
    ...(input.recipients ? { recipients: recipientsOf(input.recipients) } : {}),
    ...(input.format ? { format: input.format } : {}),
    ...(input.enabled !== undefined ? { enabled: input.enabled } : {}),
    updated_at: ctx.services.now(),
  });
  return presentSchedule((await repo.find(id, row.company_id))!);
}

export async function deleteReportSchedule(ctx: Ctx, id: string): Promise<void> {
  requirePermission(ctx, 'delete', 'reports', 'delete report schedules');
  await ownSchedule(ctx, id);
  await reportSchedulesRepo(ctx.services.db).delete(id);
}
