// Scheduled SLA reports end to end on both databases: the sla-reports job (through the jobs
// runner, two "processes" at once) queues each enabled schedule's mail once per period in the
// alerts outbox; the delivery job mails it to a real SMTP sink with the PDF or CSV attached,
// whose figures are the API's. Disabled schedules and periods already sent send nothing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { extractText, getDocumentProxy } from 'unpdf';
import { DB_KINDS } from '../../support/test-db.ts';
import { startSmtpSink, type Mail, type SmtpSink } from '../../support/smtp-sink.ts';
import { startTestApp, type ApiClient, type TestApp } from '../../support/test-app.ts';
import { seedCompany, seedUser, signIn } from '../../support/fixtures.ts';
import { monitorsRepo, newMonitorRow } from '../../../src/server/db/repositories/monitors-repo.ts';
import { writeBatch, type PendingResult } from '../../../src/server/engine/result-writer.ts';
import { createJobRunner } from '../../../src/server/jobs/runner.ts';
import { slaReports } from '../../../src/server/jobs/sla-reports.ts';
import { queueScheduledReports } from '../../../src/server/domain/reports/schedule-run.ts';
import { runDeliveries } from '../../../src/server/notify/outbox/deliver.ts';

const MIN = 60_000;
let clock = Date.UTC(2026, 9, 15, 9);

/** The attachment of a raw MIME message (nodemailer's multipart/mixed), decoded. */
function attachment(mail: Mail): { filename: string; type: string; bytes: Buffer } {
  const boundary = /boundary="([^"]+)"/.exec(mail.raw)![1];
  const part = mail.raw.split(`--${boundary}`).find((p) => /Content-Disposition: attachment/i.test(p));
  if (!part) throw new Error(`no attachment in:\n${mail.raw.slice(0, 2000)}`);
  const cut = part.indexOf('\r\n\r\n');
  const head = part.slice(0, cut).replace(/\r\n[ \t]+/g, ' ');
  return {
    type: /Content-Type: ([^;\r\n]+)/i.exec(head)![1],
    filename: /filename="?([^";\r\n]+)/i.exec(head)![1],
    bytes: Buffer.from(part.slice(cut + 4).replace(/\s+/g, ''), 'base64'),
  };
}

describe.each(DB_KINDS)('scheduled SLA reports on %s', (kind) => {
  let t: TestApp;
  let sink: SmtpSink;
  let admin: ApiClient;
  let host: { host: string };
  let user: { email: string; password: string };
  const monitorId = `m-sched-${kind}`;

  beforeAll(async () => {
    clock = Date.UTC(2026, 9, 15, 9);
    sink = await startSmtpSink();
    t = await startTestApp({ db: kind, now: () => clock, env: { SMTP_URL: sink.url } });
    const company = await seedCompany(t.services, { name: 'Acme' });
    host = { host: `${company.subdomain}.localhost` };
    admin = t.client();
    user = await seedUser(t.services, { userType: 2, companyId: company.id });
    await signIn(admin, user, host.host);
    await monitorsRepo(t.services.db).insert({
      ...newMonitorRow({
        id: monitorId,
        company_id: company.id,
        name: 'Shop',
        type: 'http',
        config: '{}',
        is_public: true,
        interval_seconds: 300,
        timeout_seconds: 5,
        confirmations: 1,
        next_due_at: clock,
        created_at: clock,
      }),
      sla_target: 99.5,
    });
    // October 20th to November 1st every 5 minutes; down for an hour on October 21st.
    const start = Date.UTC(2026, 9, 20);
    for (let day = 0; day < 13; day++) {
      const batch: PendingResult[] = [];
      for (let i = 0; i < 288; i++) {
        const checkedAt = start + day * 86_400_000 + i * 5 * MIN + 1000;
        const down = day === 1 && i >= 120 && i < 132;
        batch.push({
          monitorId,
          companyId: company.id,
          checkedAt,
          leaseOwner: null,
          outcome: {
            status: down ? 'down' : 'operational',
            responseTimeMs: down ? null : 120,
            httpCode: down ? 503 : 200,
            error: null,
          } as PendingResult['outcome'],
        });
      }
      await writeBatch(t.services.db, batch, batch.at(-1)!.checkedAt, t.services.monitorIncidents!);
    }
  }, 120_000);
  afterAll(async () => {
    await t?.close();
    await sink?.close();
  });

  // The outage's own alerts (personal e-mail to the admin) share the sink.
  const reports = () => sink.mails.filter((m) => /^Subject: SLA report/m.test(m.raw));

  it('sends each period once, with the report attached, and nothing for a disabled schedule', async () => {
    clock = Date.UTC(2026, 9, 15, 9);
    const make = async (body: object) => (await admin.post('/api/v1/reports/schedules', body, host)).body;
    const monthly = await make({ frequency: 'monthly', recipients: ['ops@acme.example', 'cfo@acme.example'], format: 'pdf' });
    const weekly = await make({ frequency: 'weekly', recipients: ['ops@acme.example'], format: 'csv' });
    await make({ frequency: 'monthly', recipients: ['off@acme.example'], format: 'csv', enabled: false });

    // Sunday November 1st, 00:20: October is complete, and the week of October 19th-25th.
    clock = Date.UTC(2026, 10, 1, 0, 20);
    const a = createJobRunner(t.services, { jobs: [slaReports], holder: 'process-a' });
    const b = createJobRunner(t.services, { jobs: [slaReports], holder: 'process-b' });
    const ran = await Promise.all([a.runDue(), b.runDue()]);
    expect(ran.flat()).toEqual(['sla-reports']); // one process holds the lease
    // Even without the lease (two callers at once, or a run after a lease expired) a period queues once.
    expect(await Promise.all([queueScheduledReports(t.services.db, clock), queueScheduledReports(t.services.db, clock)])).toEqual([0, 0]);
    await runDeliveries(t.services, { holder: 'test', random: () => 0.5 });
    await expect.poll(() => reports().length).toBe(2);

    const pdfMail = reports().find((m) => m.to.includes('cfo@acme.example'))!;
    expect(pdfMail.to.sort()).toEqual(['cfo@acme.example', 'ops@acme.example']);
    expect(pdfMail.raw).toMatch(/Subject: SLA report Acme 2026-10/);
    const pdf = attachment(pdfMail);
    expect(pdf).toMatchObject({ type: 'application/pdf', filename: 'sla-report-2026-10-01-2026-10-31.pdf' });
    await signIn(admin, user, host.host); // weeks later: a new session
    const json = (await admin.get('/api/v1/reports/sla?from=2026-10-01&to=2026-10-31', host)).body;
    const line = json.monitors[0];
    expect(line.downtime_minutes).toBe(60);
    const { text } = await extractText(await getDocumentProxy(new Uint8Array(pdf.bytes)), { mergePages: true });
    expect(text).toContain(String(line.uptime_percent));
    expect(text).toContain('Acme');

    const csvMail = reports().find((m) => !m.to.includes('cfo@acme.example'))!;
    const csv = attachment(csvMail);
    expect(csv).toMatchObject({ type: 'text/csv', filename: 'sla-report-2026-10-19-2026-10-25.csv' });
    const week = (await admin.get('/api/v1/reports/sla?from=2026-10-19&to=2026-10-25', host)).body.monitors[0];
    expect(csv.bytes.toString('utf8')).toContain(
      `${monitorId},Shop,2026-10-19,2026-10-25,${week.uptime_percent},${week.downtime_minutes},`,
    );

    // Its receipt, among the company's other deliveries.
    const receipts = (await admin.get('/api/v1/alert-deliveries', host)).body.filter(
      (d: { event: string }) => d.event === 'report.scheduled',
    );
    expect(receipts.map((d: { channel_name: string; state: string }) => [d.channel_name, d.state])).toEqual([
      ['Scheduled SLA report (e-mail)', 'delivered'],
      ['Scheduled SLA report (e-mail)', 'delivered'],
    ]);

    const list = (await admin.get('/api/v1/reports/schedules', host)).body;
    expect(list.find((s: { id: string }) => s.id === monthly.id).last_sent_period).toBe('2026-10');
    expect(list.find((s: { id: string }) => s.id === weekly.id).last_sent_period).toBe('2026-10-19');

    // Later the same day: nothing new. Monday: the next week only.
    clock = Date.UTC(2026, 10, 1, 18);
    expect(await queueScheduledReports(t.services.db, clock)).toBe(0);
    clock = Date.UTC(2026, 10, 2, 0, 5);
    expect(await queueScheduledReports(t.services.db, clock)).toBe(1);
    await runDeliveries(t.services, { holder: 'test', random: () => 0.5 });
    await expect.poll(() => reports().length).toBe(3);
    expect(attachment(reports()[2]).filename).toBe('sla-report-2026-10-26-2026-11-01.csv');
    expect(sink.mails.some((m) => m.to.includes('off@acme.example'))).toBe(false);
  });
});
