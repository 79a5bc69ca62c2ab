// /reports: the SLA report of a month, a quarter, the last year or any range, per monitor and
// for the company (uptime with maintenance apart, downtime, incidents, MTTR, MTBF, p50/p95, the
// SLA target met or missed with its error budget), its CSV and PDF, and the e-mail schedules.
// Everyone with `reports: view` reads it; company admins schedule; super admins pick the company
// in the header and also delete schedules.
import { useStore } from '@nanostores/react';
import { useEffect, useState, type FormEvent } from 'react';
import { can } from '../../../../lib/permissions.ts';
import { periodDates, rangeOfDates, type ReportPeriodName } from '../../../../lib/report-periods.ts';
import { $role } from '../../stores/auth.ts';
import { $selectedTenant } from '../../stores/tenant.ts';
import { Field } from '../../ui/Field.tsx';
import { Confirm, Modal } from '../../ui/Modal.tsx';
import { FormAlert, ModalActions, useModalForm } from '../../ui/ModalForm.tsx';
import { MonitorChecklist } from '../../ui/MonitorChecklist.tsx';
import { Skeleton } from '../../ui/Card.tsx';
import { ReportTable } from './ReportTable.tsx';
import {
  $report,
  $reportMonitors,
  $schedules,
  $schedulesAlert,
  createSchedule,
  deleteSchedule,
  downloadReport,
  loadReport,
  loadReportMonitors,
  loadSchedules,
  setScheduleEnabled,
  validateSchedule,
  type ReportQuery,
  type Schedule,
  type ScheduleForm,
} from './store.ts';
import { Table } from '../../ui/Table.tsx';

type Choice = ReportPeriodName | 'custom';
const CHOICES: Array<[Choice, string]> = [
  ['this_month', 'This month'],
  ['last_7_days', 'Last 7 days'],
  ['last_30_days', 'Last 30 days'],
  ['last_month', 'Last month'],
  ['last_quarter', 'Last quarter'],
  ['last_12_months', 'Last 12 months'],
  ['custom', 'Custom range'],
];

export function ReportsPage() {
  const role = useStore($role);
  const tenant = useStore($selectedTenant);
  const monitorOptions = useStore($reportMonitors);
  const report = useStore($report);
  const superAdmin = role === 'super_admin';
  const scope = superAdmin ? tenant : null;
  // null until the user picks: the server opens on the latest period holding data, and the
  // select then shows the one it chose
  const [picked, setPicked] = useState<Choice | null>(null);
  const [custom, setCustom] = useState(() => periodDates('last_month', Date.now()));
  const [monitorIds, setMonitorIds] = useState<string[]>([]);
  const [downloadError, setDownloadError] = useState<string | null>(null);
  const opened = report.status === 'ready' ? report.data : null;
  const choice: Choice | null = picked ?? opened?.period ?? null;
  const dates =
    picked === 'custom'
      ? custom
      : picked
        ? periodDates(picked, Date.now())
        : opened
          ? { from: opened.from, to: opened.to }
          : { from: '', to: '' };
  const rangeProblem = (() => {
    if (picked !== 'custom') return null;
    const r = rangeOfDates(dates.from, dates.to);
    return typeof r === 'string' ? r : null;
  })();
  const query: ReportQuery = { ...dates, period: picked === 'custom' ? undefined : (picked ?? 'latest'), monitorIds, tenant: scope };
  const needsTenant = superAdmin && !tenant;

  useEffect(() => {
    if (!needsTenant) void loadReportMonitors(scope);
    setMonitorIds([]);
  }, [scope, needsTenant]);
  useEffect(() => {
    if (!needsTenant && !rangeProblem) void loadReport(query);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [scope, needsTenant, picked, picked === 'custom' ? `${dates.from}/${dates.to}` : '', monitorIds.join(','), rangeProblem]);

  async function download(format: 'csv' | 'pdf') {
    setDownloadError(await downloadReport(query, format));
  }

  return (
    <div className="sw-admin">
      <nav aria-label="Breadcrumb" className="sw-breadcrumb">
        <a href="/dashboard">Dashboard</a> / <span aria-current="page">Reports</span>
      </nav>
      <div className="sw-page-head">
        <h2 className="sw-page-title">SLA reports</h2>
      </div>
      <p className="sw-muted">
        Uptime excludes maintenance, shown apart. Figures come from the checks' hourly and daily summaries: each check counts for one check
        interval. Days are UTC days.
      </p>
      {needsTenant ? (
        <div className="sw-banner" role="status">
          Choose a company in the header to see its report.
        </div>
      ) : (
        <>
          <fieldset className="sw-filters sw-report-filters">
            <legend className="sw-visually-hidden">Report range and monitors</legend>
            <label>
              Period
              <select
                value={choice ?? ''}
                onChange={(e) => {
                  const next = e.target.value as Choice;
                  if (next === 'custom') setCustom(dates.from ? dates : periodDates('last_month', Date.now()));
                  setPicked(next);
                }}
              >
                {choice === null && <option value="">Finding the latest period with data…</option>}
                {CHOICES.map(([v, label]) => (
                  <option key={v} value={v}>
                    {label}
                  </option>
                ))}
              </select>
            </label>
            <label>
              From
              <input
                type="date"
                value={dates.from}
                disabled={choice !== 'custom'}
                onChange={(e) => setCustom({ ...custom, from: e.target.value })}
              />
            </label>
            <label>
              To
              <input
                type="date"
                value={dates.to}
                disabled={choice !== 'custom'}
                onChange={(e) => setCustom({ ...custom, to: e.target.value })}
              />
            </label>
            <details className="sw-report-monitors">
              <summary>{monitorIds.length ? `${monitorIds.length} monitors` : 'All monitors'}</summary>
              <MonitorChecklist
                id="report-monitors"
                legend="Monitors in the report"
                hint="None chosen: every monitor."
                options={monitorOptions}
                chosen={monitorIds}
                onChange={setMonitorIds}
              />
            </details>
            <div className="sw-report-downloads">
              <button type="button" className="sw-btn" disabled={!!rangeProblem || !dates.from} onClick={() => void download('csv')}>
                Download CSV
              </button>
              <button type="button" className="sw-btn" disabled={!!rangeProblem || !dates.from} onClick={() => void download('pdf')}>
                Download PDF
              </button>
            </div>
          </fieldset>
          {rangeProblem && (
            <div className="sw-banner sw-banner-error" role="alert">
              {rangeProblem}
            </div>
          )}
          {downloadError && (
            <div className="sw-banner sw-banner-error" role="alert">
              {downloadError}
            </div>
          )}
          {!rangeProblem && <ReportView />}
          <Schedules tenant={scope} />
        </>
      )}
    </div>
  );
}

function ReportView() {
  const report = useStore($report);
  if (report.status === 'loading')
    return (
      <section className="sw-card" aria-busy="true">
        <Skeleton rows={4} />
      </section>
    );
  if (report.status === 'error')
    return (
      <div className="sw-banner sw-banner-error" role="alert">
        {report.message}
      </div>
    );
  return <ReportTable report={report.data} />;
}

function Schedules({ tenant }: { tenant: string | null }) {
  const role = useStore($role);
  const list = useStore($schedules);
  const alert = useStore($schedulesAlert);
  const [adding, setAdding] = useState(false);
  const [deleting, setDeleting] = useState<Schedule | null>(null);
  const mayCreate = can(role, 'create', 'reports');
  const mayUpdate = can(role, 'update', 'reports');
  const mayDelete = can(role, 'delete', 'reports');
  useEffect(() => {
    $schedulesAlert.set(null);
    void loadSchedules(tenant);
  }, [tenant]);
  return (
    <section className="sw-card" aria-labelledby="report-schedules">
      <header className="sw-card-head">
        <h2 id="report-schedules">Scheduled reports</h2>
        {mayCreate && (
          <button type="button" className="sw-btn sw-btn-primary sw-btn-small" onClick={() => setAdding(true)}>
            Schedule a report
          </button>
        )}
      </header>
      <p className="sw-muted">
        Monthly reports cover the last complete month and go out on the 1st; weekly ones cover Monday to Sunday and go out on Monday (UTC),
        with the PDF or CSV attached.
      </p>
      {alert && (
        <div className={alert.ok ? 'sw-banner sw-banner-ok' : 'sw-banner sw-banner-error'} role="alert">
          {alert.text}
        </div>
      )}
      {list.status === 'loading' && <Skeleton rows={2} />}
      {list.status === 'error' && (
        <div className="sw-banner sw-banner-error" role="alert">
          {list.message}
        </div>
      )}
      {list.status === 'ready' && list.data.length === 0 && <p>No report is scheduled.</p>}
      {list.status === 'ready' && list.data.length > 0 && (
        <Table
          aria-labelledby="report-schedules"
          rows={list.data}
          rowKey={(s) => s.id}
          columns={[
            { label: 'Frequency', cell: (s) => (s.frequency === 'monthly' ? 'Monthly' : 'Weekly') },
            { label: 'Format', cell: (s) => s.format.toUpperCase() },
            { label: 'Recipients', className: 'sw-wrap-anywhere', cell: (s) => s.recipients.join(', ') },
            { label: 'Last sent', cell: (s) => s.last_sent_period ?? 'Not yet' },
            {
              label: 'State',
              cell: (s) => <span className={`sw-pill ${s.enabled ? 'sw-green' : 'sw-grey'}`}>{s.enabled ? 'Enabled' : 'Disabled'}</span>,
            },
            (mayUpdate || mayDelete) && {
              label: 'Actions',
              className: 'sw-actions',
              cell: (s) => (
                <>
                  {mayUpdate && (
                    <button type="button" className="sw-btn sw-btn-small" onClick={() => void setScheduleEnabled(s, !s.enabled, tenant)}>
                      {s.enabled ? 'Disable' : 'Enable'}
                    </button>
                  )}
                  {mayDelete && (
                    <button type="button" className="sw-btn sw-btn-small sw-btn-danger" onClick={() => setDeleting(s)}>
                      Delete
                    </button>
                  )}
                </>
              ),
            },
          ]}
        />
      )}
      {adding && <ScheduleModal tenant={tenant} onClose={() => setAdding(false)} />}
      {deleting && (
        <Confirm
          title="Delete schedule"
          danger
          confirmLabel="Delete"
          text={`Delete the ${deleting.frequency} report to ${deleting.recipients.join(', ')}?`}
          onCancel={() => setDeleting(null)}
          onConfirm={() => {
            const s = deleting;
            setDeleting(null);
            void deleteSchedule(s, tenant);
          }}
        />
      )}
    </section>
  );
}

function ScheduleModal({ tenant, onClose }: { tenant: string | null; onClose: () => void }) {
  const { f, errors, setErrors, busy, edit, send } = useModalForm<ScheduleForm>({ frequency: 'monthly', format: 'pdf', recipients: '' });
  const [alert, setAlert] = useState<string | null>(null);
  async function submit(e: FormEvent) {
    e.preventDefault();
    const o = await send(validateSchedule(f), () => createSchedule(f, tenant));
    if (!o) return;
    if (o.ok) return onClose();
    setAlert(o.text);
    setErrors(o.fields);
  }
  return (
    <Modal title="Schedule a report" onClose={onClose}>
      <form className="sw-form sw-form-grid" onSubmit={submit} noValidate>
        <FormAlert text={alert} />
        <Field id="s-frequency" label="Frequency" error={errors.frequency}>
          <select
            id="s-frequency"
            value={f.frequency}
            onChange={(e) => edit({ frequency: e.target.value as ScheduleForm['frequency'] }, 'frequency')}
          >
            <option value="monthly">Monthly</option>
            <option value="weekly">Weekly</option>
          </select>
        </Field>
        <Field id="s-format" label="Attachment" error={errors.format}>
          <select id="s-format" value={f.format} onChange={(e) => edit({ format: e.target.value as ScheduleForm['format'] }, 'format')}>
            <option value="pdf">PDF</option>
            <option value="csv">CSV</option>
          </select>
        </Field>
        <div className="sw-span-2">
          <Field
            id="s-recipients"
            label="Recipients"
            required
            error={errors.recipients}
            hint="Up to 20 e-mail addresses, one a line or separated by commas"
          >
            <textarea
              id="s-recipients"
              rows={3}
              value={f.recipients}
              aria-invalid={errors.recipients ? true : undefined}
              onChange={(e) => edit({ recipients: e.target.value }, 'recipients')}
            />
          </Field>
        </div>
        <ModalActions onClose={onClose} busy={busy} submitLabel="Schedule" />
      </form>
    </Modal>
  );
}
