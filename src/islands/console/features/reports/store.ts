// The SLA report screen (/reports): the report of a range for the company (super admins: the
// chosen tenant), its CSV and PDF downloads (audited by the server), and the company's e-mail
// schedules. Figures come as the server computed them; this file only fetches and shapes.
import { atom } from 'nanostores';
import type { components } from '../../../../api/schema.d.ts';
import { api, errorText } from '../../api.ts';
import { changeThenReload, dataOrLog, inAlert, loadInto, serverOr, type Alert } from '../../stores/remote.ts';
import type { Load } from '../../ui/load.ts';
import { consoleLocale, t } from '../../i18n.ts';

type S = components['schemas'];
export type SlaReport = S['SlaReport'];
export type SlaLine = S['SlaMonitorLine'];
export type SlaFigures = S['SlaFigures'];
export type Schedule = S['ReportSchedule'];
export type Frequency = S['ReportFrequency'];
export type FileFormat = S['ReportFileFormat'];

export interface ReportQuery {
  /** A named period (or `latest`, the server's choice); from and to are then only the file's name */
  period?: S['ReportPeriodQuery'];
  from: string;
  to: string;
  /** none chosen: every monitor */
  monitorIds: string[];
  tenant: string | null;
}

export const $report = atom<Load<SlaReport>>({ status: 'loading' });
export const $reportMonitors = atom<Array<{ id: string; name: string }>>([]);
export const $schedules = atom<Load<Schedule[]>>({ status: 'loading' });
export const $schedulesAlert = atom<Alert | null>(null);

const queryOf = (q: ReportQuery) => ({
  ...(q.period ? { period: q.period } : { from: q.from, to: q.to }),
  monitor_ids: q.monitorIds.length ? q.monitorIds.join(',') : undefined,
  tenant: q.tenant ?? undefined,
});

export function loadReport(q: ReportQuery): Promise<void> {
  return loadInto(
    $report,
    () => api.GET('/api/v1/reports/sla', { params: { query: queryOf(q) } }),
    serverOr(t('reports.store.loadFailed')),
  );
}

/** Saves the report as a file; the server records the export. Answers why not, or null. */
export async function downloadReport(q: ReportQuery, format: 'csv' | 'pdf'): Promise<string | null> {
  const { data, error } = await api.GET('/api/v1/reports/sla', { params: { query: { ...queryOf(q), format } }, parseAs: 'blob' });
  if (data === undefined) return errorText(error, t('reports.store.downloadFailed'));
  const url = URL.createObjectURL(data as Blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = `sla-report-${q.from}-${q.to}.${format}`;
  a.click();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
  return null;
}

/** The monitors to choose from; a failure is only logged (the report still covers every monitor). */
export async function loadReportMonitors(tenant: string | null): Promise<void> {
  const data = await dataOrLog(
    () => api.GET('/api/v1/monitors', { params: { query: { tenant: tenant ?? undefined, limit: 200 } } }),
    'Failed to load monitors for the report',
  );
  $reportMonitors.set(data ? data.map((m) => ({ id: m.id, name: m.name })) : []);
}

export function loadSchedules(tenant: string | null): Promise<void> {
  return loadInto(
    $schedules,
    () => api.GET('/api/v1/reports/schedules', { params: { query: { tenant: tenant ?? undefined } } }),
    serverOr(t('reports.store.schedulesLoadFailed')),
  );
}

export interface ScheduleForm {
  frequency: Frequency;
  format: FileFormat;
  /** one address a line or separated by commas */
  recipients: string;
}

export const splitRecipients = (text: string): string[] =>
  text
    .split(/[\s,;]+/)
    .map((s) => s.trim())
    .filter(Boolean);

export function validateSchedule(f: ScheduleForm): Record<string, string> {
  const list = splitRecipients(f.recipients);
  if (list.length === 0) return { recipients: t('reports.store.recipientsNone') };
  if (list.length > 20) return { recipients: t('reports.store.recipientsTooMany') };
  const bad = list.find((a) => !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(a));
  return bad ? { recipients: t('reports.store.recipientsBad', { address: bad }) } : {};
}

export type Outcome = { ok: true } | { ok: false; text: string; fields: Record<string, string> };

export async function createSchedule(f: ScheduleForm, tenant: string | null): Promise<Outcome> {
  const body: S['ReportScheduleInput'] = {
    frequency: f.frequency,
    format: f.format,
    recipients: splitRecipients(f.recipients),
    ...(tenant ? { company_id: tenant } : {}),
  };
  const r = await api.POST('/api/v1/reports/schedules', { body });
  if (r.data !== undefined) {
    $schedulesAlert.set({ ok: true, text: t('reports.store.scheduled') });
    await loadSchedules(tenant);
    return { ok: true };
  }
  const fields = (r.error as { errors?: Record<string, string> } | undefined)?.errors ?? {};
  return { ok: false, text: errorText(r.error, t('reports.store.scheduleFailed')), fields };
}

export function setScheduleEnabled(s: Schedule, enabled: boolean, tenant: string | null): Promise<boolean> {
  return changeThenReload(
    () => api.PUT('/api/v1/reports/schedules/{id}', { params: { path: { id: s.id } }, body: { enabled } }),
    inAlert($schedulesAlert, enabled ? t('reports.store.enabled') : t('reports.store.disabled'), t('reports.store.changeFailed')),
    () => loadSchedules(tenant),
  );
}

export function deleteSchedule(s: Schedule, tenant: string | null): Promise<boolean> {
  return changeThenReload(
    // 204 has no body: the answer's status says it went through.
    async () => {
      const r = await api.DELETE('/api/v1/reports/schedules/{id}', { params: { path: { id: s.id } } });
      return { ...r, data: r.response.ok ? true : undefined };
    },
    inAlert($schedulesAlert, t('reports.store.deleted'), t('reports.store.deleteFailed')),
    () => loadSchedules(tenant),
  );
}

/** '99.9 %', '—' */
/** A figure as the server gave it, in the console's decimal sign and without grouping (33333.33 stays one number). */
export const num = (v: number) => new Intl.NumberFormat(consoleLocale(), { useGrouping: false, maximumFractionDigits: 20 }).format(v);

export const pct = (v: number | null | undefined) => (v === null || v === undefined ? '—' : `${num(v)} %`);
/** Minutes as a person reads them: '45 min', '2 h 5 min', '3 d 4 h' */
export function minutesText(v: number | null | undefined): string {
  if (v === null || v === undefined) return '—';
  if (v < 60) return t('reports.units.minutes', { min: num(Math.round(v * 100) / 100) });
  const m = Math.round(v);
  if (m < 1440) return t('reports.units.hours', { h: num(Math.floor(m / 60)), min: num(m % 60) });
  return t('reports.units.days', { d: num(Math.floor(m / 1440)), h: num(Math.floor((m % 1440) / 60)) });
}
