// /reports: the SLA report of a month, a quarter, the last year or any range, per monitor and
// for the company (uptime with maintenance apart, downtime, incidents, MTTR, MTBF, p50/p95, the
// SLA target met or missed with its error budget), its CSV and PDF, and the e-mail schedules.
// Everyone with `reports: view` reads it; company admins schedule; super admins pick the company
// in the header and also delete schedules.
import { useStore } from '@nanostores/react';
import { useEffect, useState, type FormEvent } from 'react';
import { can } from '../../../../lib/permissions.ts';
import { isoDateStart, MAX_REPORT_DAYS, periodDates, rangeOfDates, type ReportPeriodName } from '../../../../lib/report-periods.ts';
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
import { t, type ConsoleKey } from '../../i18n.ts';

type Choice = ReportPeriodName | 'custom';
const CHOICES: Array<[Choice, ConsoleKey]> = [
  ['this_month', 'reports.period.thisMonth'],
  ['last_7_days', 'reports.period.last7Days'],
  ['last_30_days', 'reports.period.last30Days'],
  ['last_month', 'reports.period.lastMonth'],
  ['last_quarter', 'reports.period.lastQuarter'],
  ['last_12_months', 'reports.period.last12Months'],
  ['custom', 'reports.period.custom'],
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
    if (typeof rangeOfDates(dates.from, dates.to) !== 'string') return null;
    // the same checks as lib/report-periods.ts rangeOfDates, in the reader's language
    const from = isoDateStart(dates.from);
    const to = isoDateStart(dates.to);
    if (from === null) return t('reports.range.fromInvalid');
    if (to === null) return t('reports.range.toInvalid');
    if (to < from) return t('reports.range.toBeforeFrom');
    return t('reports.range.tooLong', { days: MAX_REPORT_DAYS });
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
      <nav aria-label={t('reports.page.breadcrumb')} className="sw-breadcrumb">
        <a href="/dashboard">{t('reports.page.dashboard')}</a> / <span aria-current="page">{t('reports.page.reports')}</span>
      </nav>
      <div className="sw-page-head">
        <h2 className="sw-page-title">{t('reports.page.title')}</h2>
      </div>
      <p className="sw-muted">{t('reports.page.intro')}</p>
      {needsTenant ? (
        <div className="sw-banner" role="status">
          {t('reports.page.chooseCompany')}
        </div>
      ) : (
        <>
          <fieldset className="sw-filters sw-report-filters">
            <legend className="sw-visually-hidden">{t('reports.filter.legend')}</legend>
            <label>
              {t('reports.filter.period')}
              <select
                value={choice ?? ''}
                onChange={(e) => {
                  const next = e.target.value as Choice;
                  if (next === 'custom') setCustom(dates.from ? dates : periodDates('last_month', Date.now()));
                  setPicked(next);
                }}
              >
                {choice === null && <option value="">{t('reports.filter.finding')}</option>}
                {CHOICES.map(([v, label]) => (
                  <option key={v} value={v}>
                    {t(label)}
                  </option>
                ))}
              </select>
            </label>
            <label>
              {t('reports.filter.from')}
              <input
                type="date"
                value={dates.from}
                disabled={choice !== 'custom'}
                onChange={(e) => setCustom({ ...custom, from: e.target.value })}
              />
            </label>
            <label>
              {t('reports.filter.to')}
              <input
                type="date"
                value={dates.to}
                disabled={choice !== 'custom'}
                onChange={(e) => setCustom({ ...custom, to: e.target.value })}
              />
            </label>
            <details className="sw-report-monitors">
              <summary>
                {monitorIds.length ? t('reports.filter.monitorCount', { count: monitorIds.length }) : t('reports.filter.allMonitors')}
              </summary>
              <MonitorChecklist
                id="report-monitors"
                legend={t('reports.filter.monitorsLegend')}
                hint={t('reports.filter.monitorsHint')}
                options={monitorOptions}
                chosen={monitorIds}
                onChange={setMonitorIds}
              />
            </details>
            <div className="sw-report-downloads">
              <button type="button" className="sw-btn" disabled={!!rangeProblem || !dates.from} onClick={() => void download('csv')}>
                {t('reports.filter.downloadCsv')}
              </button>
              <button type="button" className="sw-btn" disabled={!!rangeProblem || !dates.from} onClick={() => void download('pdf')}>
                {t('reports.filter.downloadPdf')}
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
        <h2 id="report-schedules">{t('reports.schedules.title')}</h2>
        {mayCreate && (
          <button type="button" className="sw-btn sw-btn-primary sw-btn-small" onClick={() => setAdding(true)}>
            {t('reports.schedules.add')}
          </button>
        )}
      </header>
      <p className="sw-muted">{t('reports.schedules.intro')}</p>
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
      {list.status === 'ready' && list.data.length === 0 && <p>{t('reports.schedules.empty')}</p>}
      {list.status === 'ready' && list.data.length > 0 && (
        <Table
          aria-labelledby="report-schedules"
          rows={list.data}
          rowKey={(s) => s.id}
          columns={[
            {
              label: t('reports.schedules.frequency'),
              cell: (s) => (s.frequency === 'monthly' ? t('reports.schedules.monthly') : t('reports.schedules.weekly')),
            },
            { label: t('reports.schedules.format'), cell: (s) => s.format.toUpperCase() },
            { label: t('reports.schedules.recipients'), className: 'sw-wrap-anywhere', cell: (s) => s.recipients.join(', ') },
            { label: t('reports.schedules.lastSent'), cell: (s) => s.last_sent_period ?? t('reports.schedules.notYet') },
            {
              label: t('reports.schedules.state'),
              cell: (s) => (
                <span className={`sw-pill ${s.enabled ? 'sw-green' : 'sw-grey'}`}>
                  {s.enabled ? t('reports.schedules.enabled') : t('reports.schedules.disabled')}
                </span>
              ),
            },
            (mayUpdate || mayDelete) && {
              label: t('reports.schedules.actions'),
              className: 'sw-actions',
              cell: (s) => (
                <>
                  {mayUpdate && (
                    <button type="button" className="sw-btn sw-btn-small" onClick={() => void setScheduleEnabled(s, !s.enabled, tenant)}>
                      {s.enabled ? t('reports.schedules.disable') : t('reports.schedules.enable')}
                    </button>
                  )}
                  {mayDelete && (
                    <button type="button" className="sw-btn sw-btn-small sw-btn-danger" onClick={() => setDeleting(s)}>
                      {t('reports.schedules.delete')}
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
          title={t('reports.schedules.deleteTitle')}
          danger
          confirmLabel={t('reports.schedules.delete')}
          text={t('reports.schedules.deleteText', { frequency: deleting.frequency, recipients: deleting.recipients.join(', ') })}
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
    <Modal title={t('reports.schedules.add')} onClose={onClose}>
      <form className="sw-form sw-form-grid" onSubmit={submit} noValidate>
        <FormAlert text={alert} />
        <Field id="s-frequency" label={t('reports.schedules.frequency')} error={errors.frequency}>
          <select
            id="s-frequency"
            value={f.frequency}
            onChange={(e) => edit({ frequency: e.target.value as ScheduleForm['frequency'] }, 'frequency')}
          >
            <option value="monthly">{t('reports.schedules.monthly')}</option>
            <option value="weekly">{t('reports.schedules.weekly')}</option>
          </select>
        </Field>
        <Field id="s-format" label={t('reports.schedules.attachment')} error={errors.format}>
          <select id="s-format" value={f.format} onChange={(e) => edit({ format: e.target.value as ScheduleForm['format'] }, 'format')}>
            <option value="pdf">PDF</option>
            <option value="csv">CSV</option>
          </select>
        </Field>
        <div className="sw-span-2">
          <Field
            id="s-recipients"
            label={t('reports.schedules.recipients')}
            required
            error={errors.recipients}
            hint={t('reports.schedules.recipientsHint')}
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
        <ModalActions onClose={onClose} busy={busy} submitLabel={t('reports.schedules.submit')} />
      </form>
    </Modal>
  );
}
