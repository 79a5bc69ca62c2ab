// The SLA report verb of GET /api/v1/reports/sla: who may read which company's report, the
// range and monitors asked for, and the file it answers. Company users get their own company
// (viewers read it too: `reports: view`); super admins name one (tenant), and a file of another
// company's report is an export needing `export`. CSV and PDF files are audited as data_export.
import { can } from '../../../lib/permissions.ts';
import {
  DAY_MS,
  latestPeriodWithData,
  MAX_REPORT_DAYS,
  periodDates,
  rangeOfDates,
  type ReportPeriodName,
} from '../../../lib/report-periods.ts';
import { isHexColour } from '../../../lib/formats.ts';
import { companiesRepo, type CompanyRow } from '../../db/repositories/companies-repo.ts';
import { reportsRepo } from '../../db/repositories/reports-repo.ts';
import { auditFromCtx } from '../audit/record.ts';
import { companyScope, requirePermission } from '../authz.ts';
import type { Ctx } from '../context.ts';
import { DomainError, notFound } from '../errors.ts';
import { safeLogoDataUrl } from '../status-page/logo.ts';
import { buildSlaReport, type SlaReport } from './build.ts';
import { reportCsv, reportFileName, reportPdf, type PdfBrand } from './files.ts';

export type ReportFormat = 'json' | 'csv' | 'pdf';

export interface SlaQuery {
  /** A named period, or `latest`: the latest one holding data (lib/report-periods.ts); instead of from and to */
  period?: ReportPeriodName | 'latest';
  from?: string;
  to?: string;
  /** Comma-separated monitor ids; none: every monitor of the company */
  monitor_ids?: string;
  format?: ReportFormat;
  tenant?: string;
}

export type SlaAnswer =
  | { format: 'json'; report: SlaReport & { period: ReportPeriodName | null } }
  | { format: 'csv' | 'pdf'; fileName: string; contentType: string; body: string | Buffer };

// 300 ids of 36 characters keep the URL under the 16 KB of request head a server accepts.
const MAX_MONITOR_IDS = 300;
const ID = /^[A-Za-z0-9_-]{1,64}$/;

function monitorIdsOf(text: string | undefined): string[] | null {
  if (text === undefined || text.trim() === '') return null;
  const ids = [...new Set(text.split(',').map((s) => s.trim()))].filter(Boolean);
  if (ids.length > MAX_MONITOR_IDS || ids.some((id) => !ID.test(id)))
    throw new DomainError('validation', `monitor_ids takes up to ${MAX_MONITOR_IDS} monitor ids separated by commas`, {
      fields: { monitor_ids: 'Invalid monitor ids' },
    });
  return ids;
}

/** The stored logo as bytes pdfkit draws (PNG or JPEG only; never fetched from anywhere). */
export function pdfBrandOf(company: CompanyRow): PdfBrand {
  const dataUrl = safeLogoDataUrl(company.horizontal_logo_base64) ?? safeLogoDataUrl(company.logo_base64);
  const m = dataUrl ? /^data:image\/(png|jpeg);base64,(.*)$/s.exec(dataUrl) : null;
  return {
    primaryColor: isHexColour(company.primary_color) ? company.primary_color : '#1f2937',
    logo: m ? Buffer.from(m[2], 'base64') : null,
  };
}

/** The report as the file `format` asks for (used by the API and the schedule mail). */
export async function reportFile(
  company: CompanyRow,
  report: SlaReport,
  format: 'csv' | 'pdf',
): Promise<{ fileName: string; contentType: string; body: string | Buffer }> {
  if (format === 'csv') return { fileName: reportFileName(report, 'csv'), contentType: 'text/csv; charset=utf-8', body: reportCsv(report) };
  return { fileName: reportFileName(report, 'pdf'), contentType: 'application/pdf', body: await reportPdf(report, pdfBrandOf(company)) };
}

export async function getSlaReport(ctx: Ctx, q: SlaQuery): Promise<SlaAnswer> {
  const actor = requirePermission(ctx, 'view', 'reports');
  const format = q.format ?? 'json';
  const companyId = companyScope(ctx, q.tenant);
  if (!companyId)
    throw new DomainError('validation', 'Choose the company the report is about (tenant)', { fields: { tenant: 'Company is required' } });
  const crossCompany = actor.companyId !== companyId;
  if (crossCompany && format !== 'json' && !can(actor.role, 'export', 'reports'))
    throw new DomainError('forbidden', "You do not have permission to export another company's report.");
  if (q.period !== undefined && (q.from !== undefined || q.to !== undefined))
    throw new DomainError('validation', 'Give either a period or from and to, not both', {
      fields: { period: 'Either period or from and to' },
    });
  const company = await companiesRepo(ctx.services.db).findById(companyId);
  if (!company) throw notFound('Company');
  const now = ctx.services.now();
  const monitorIds = monitorIdsOf(q.monitor_ids);
  const period =
    q.period === 'latest'
      ? latestPeriodWithData(await reportsRepo(ctx.services.db).latestDataAt(companyId, monitorIds, now - MAX_REPORT_DAYS * DAY_MS), now)
      : (q.period ?? null);
  const dates = period ? periodDates(period, now) : { from: q.from ?? '', to: q.to ?? '' };
  const range = rangeOfDates(dates.from, dates.to);
  if (typeof range === 'string')
    throw new DomainError('validation', range, { fields: { [range.startsWith('to') ? 'to' : 'from']: range } });
  const report = await buildSlaReport(ctx.services.db, company, range, monitorIds, now);
  if (format === 'json') return { format, report: { ...report, period } };
  const file = await reportFile(company, report, format);
  await auditFromCtx(
    ctx.services.db,
    ctx,
    'data_export',
    { export: 'sla_report', format, from: report.from, to: report.to, monitors: report.monitors.length },
    undefined,
    companyId,
  );
  return { format, ...file };
}
