// Sends a scheduled SLA report (schedule-run.ts queued it): builds the period's report now from
// the rollups and mails it to the schedule's recipients with the PDF or CSV attached. A schedule
// deleted or disabled meanwhile, or a company that is gone, ends the delivery unsent.
import type { Services } from '../../domain/context.ts';
import { buildSlaReport } from '../../domain/reports/build.ts';
import type { ReportMailPayload } from '../../domain/reports/schedule-run.ts';
import { reportFile } from '../../domain/reports/sla.ts';
import { companiesRepo } from '../../db/repositories/companies-repo.ts';
import type { AlertDeliveryRow } from '../../db/repositories/alert-deliveries-repo.ts';
import { reportSchedulesRepo } from '../../db/repositories/report-schedules-repo.ts';
import { sendRichMail } from '../mailer.ts';
import type { SendResult } from './send-http.ts';

const ended = (error: string) => ({ usable: false, result: { statusCode: null, error, retryAfterMs: null } satisfies SendResult });

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export async function sendScheduledReport(services: Services, d: AlertDeliveryRow): Promise<{ usable: boolean; result: SendResult }> {
  const schedule = await reportSchedulesRepo(services.db).find(d.report_schedule_id!, d.company_id);
  if (!schedule?.enabled) return ended('The report schedule was deleted or disabled before delivery');
  const company = await companiesRepo(services.db).findById(d.company_id);
  if (!company) return ended('The company no longer exists');
  const p = JSON.parse(d.payload) as ReportMailPayload;
  const report = await buildSlaReport(services.db, company, { from: p.from, to: p.to }, null, services.now());
  const file = await reportFile(company, report, schedule.format);
  const t = report.total;
  const summary = [
    `SLA report of ${company.name}, ${report.from} to ${report.to} (UTC).`,
    `Uptime ${t.uptime_percent ?? 'n/a'} % (maintenance excluded), downtime ${t.downtime_minutes} min, maintenance ${t.maintenance_minutes} min, ${t.incident_count} incidents.`,
    `${report.monitors.filter((m) => m.sla_met === false).length} of ${report.monitors.filter((m) => m.sla_met !== null).length} monitors with a target missed it.`,
    `The full report is attached (${file.fileName}).`,
  ];
  try {
    await sendRichMail(services, {
      to: JSON.parse(schedule.recipients) as string[],
      subject: `SLA report ${company.name} ${p.period}`.replace(/[\r\n]+/g, ' '),
      text: summary.join('\n\n') + '\n',
      html: summary.map((line) => `<p>${escapeHtml(line)}</p>`).join(''),
      headers: { 'X-StatusWatch-Event': 'report.scheduled' },
      messageId: `${d.id}@${services.config.productDomain}`,
      attachments: [{ filename: file.fileName, content: file.body, contentType: file.contentType }],
    });
    return { usable: true, result: { statusCode: null, error: null, retryAfterMs: null } };
  } catch (e) {
    const smtp = e as { responseCode?: number; message?: string };
    const error = smtp.message?.startsWith('SMTP is not configured')
      ? smtp.message
      : smtp.responseCode
        ? `SMTP ${smtp.responseCode}: the mail server refused the message`
        : 'The mail server could not be reached';
    return { usable: true, result: { statusCode: null, error, retryAfterMs: null } };
  }
}
