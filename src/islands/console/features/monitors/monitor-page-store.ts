// The monitor page (/monitors/{id}, issue 13): the monitor, its uptime, its response times from
// the rollups (the chart's range, plus 24 h and 90 d for the hourly blocks and daily bars), a page
// of recent checks, its incidents and the maintenance windows that cover it.
import { atom } from 'nanostores';
import type { components } from '../../../../api/schema.d.ts';
import { api } from '../../api.ts';
import { t } from '../../i18n.ts';
import { changeThenReload, inAlert, loadInto, refreshInto, serverOr, type Alert } from '../../stores/remote.ts';
import { coalesced, type LiveMessage } from '../../stores/live.ts';
import type { Load } from '../../ui/load.ts';
import { openingChartRange } from '../../../../lib/dense-history.ts';

export type Monitor = components['schemas']['Monitor'];
export type Uptime = components['schemas']['Uptime'];
export type ResponseTimes = components['schemas']['ResponseTimes'];
export type ResponseTimeRange = components['schemas']['ResponseTimeRange'];
export type CheckResult = components['schemas']['CheckResult'];
export type Incident = components['schemas']['Incident'];
export type MaintenanceWindow = components['schemas']['MaintenanceWindow'];

export const CHECKS_PAGE = 20;

export interface ChecksPage {
  items: CheckResult[];
  /** The cursors of the pages before this one (newest first), to page back */
  cursors: Array<string | undefined>;
  before: string | undefined;
}

export const $monitor = atom<Load<Monitor>>({ status: 'loading' });
export const $uptime = atom<Load<Uptime>>({ status: 'loading' });
/** The chart's range; null until the user picks one: then chosen from the last 24 hours' data (lib/dense-history.ts). */
export const $range = atom<ResponseTimeRange | null>(null);
export const $chart = atom<Load<ResponseTimes>>({ status: 'loading' });
export const $hours = atom<Load<ResponseTimes>>({ status: 'loading' });
export const $days = atom<Load<ResponseTimes>>({ status: 'loading' });
export const $checks = atom<Load<ChecksPage>>({ status: 'loading' });
export const $incidents = atom<Load<Incident[]>>({ status: 'loading' });
export const $windows = atom<Load<MaintenanceWindow[]>>({ status: 'loading' });
export const $pageAlert = atom<Alert | null>(null);

const path = (id: string) => ({ params: { path: { id } } });
const times = (id: string, range: ResponseTimeRange) =>
  api.GET('/api/v1/monitors/{id}/response-times', { params: { path: { id }, query: { range } } });

// Each load of the chart takes a turn; only the latest turn's answer is shown. A range picked
// while the opening chart still waits for the last 24 hours wins over the opening choice.
let chartTurn = 0;
const chartInto = (id: string, range: ResponseTimeRange, turn: number) =>
  loadInto(
    $chart,
    () => times(id, range),
    serverOr(t('monitors.load.responseTimes')),
    () => turn === chartTurn,
  );

export function loadChart(id: string, range: ResponseTimeRange): Promise<void> {
  $range.set(range);
  return chartInto(id, range, ++chartTurn);
}

/** The chart on the range the user picked, else the latest checks while the last 24 hours hold few hours of them. */
async function loadOpeningChart(id: string, hours: Promise<void>): Promise<void> {
  const picked = $range.get();
  if (picked) return loadChart(id, picked);
  const turn = ++chartTurn;
  $chart.set({ status: 'loading' });
  await hours;
  if (turn !== chartTurn) return;
  const h = $hours.get();
  const range = h.status === 'ready' ? openingChartRange(h.data.points.map((p) => p.checks)) : '24h';
  await chartInto(id, range, turn);
}

export function loadChecks(id: string, before: string | undefined, cursors: Array<string | undefined>): Promise<void> {
  return loadInto(
    $checks,
    async () => {
      const r = await api.GET('/api/v1/monitors/{id}/checks', { params: { path: { id }, query: { limit: CHECKS_PAGE, before } } });
      return { ...r, data: r.data ? { items: r.data, cursors, before } : undefined };
    },
    serverOr(t('monitors.load.checks')),
  );
}

/** The monitor first (a 404 ends there); the rest side by side. */
export async function loadMonitorPage(id: string): Promise<void> {
  $pageAlert.set(null);
  await loadInto($monitor, () => api.GET('/api/v1/monitors/{id}', path(id)), serverOr(t('monitors.load.monitor')));
  const m = $monitor.get();
  if (m.status !== 'ready') return;
  const hours = loadInto($hours, () => times(id, '24h'), serverOr(t('monitors.load.last24h')));
  await Promise.all([
    loadInto($uptime, () => api.GET('/api/v1/monitors/{id}/uptime', path(id)), serverOr(t('monitors.load.uptime'))),
    loadOpeningChart(id, hours),
    hours,
    loadInto($days, () => times(id, '90d'), serverOr(t('monitors.load.last90d'))),
    loadChecks(id, undefined, []),
    loadInto(
      $incidents,
      () => api.GET('/api/v1/incidents', { params: { query: { monitor_id: id, tenant: m.data.company_id } } }),
      serverOr(t('monitors.load.incidents')),
    ),
    loadInto(
      $windows,
      () => api.GET('/api/v1/maintenance-windows', { params: { query: { tenant: m.data.company_id, monitor_id: id } } }),
      serverOr(t('monitors.load.windows')),
    ),
  ]);
}

/** Archive or restore (refused when the plan is full), then reload the monitor. */
export function setMonitorArchived(id: string, archived: boolean): Promise<boolean> {
  const verb = archived ? 'archived' : 'restored';
  return changeThenReload(
    () => api.POST(archived ? '/api/v1/monitors/{id}/archive' : '/api/v1/monitors/{id}/restore', path(id)),
    inAlert($pageAlert, t('monitors.page.changed', { verb }), t('monitors.page.changeFailed', { verb })),
    () => loadInto($monitor, () => api.GET('/api/v1/monitors/{id}', path(id)), serverOr(t('monitors.load.monitor'))),
  );
}

/** Pause or resume, then reload the monitor's state. */
export function setMonitorPaused(id: string, paused: boolean): Promise<boolean> {
  const verb = paused ? 'paused' : 'resumed';
  return changeThenReload(
    () => api.POST(paused ? '/api/v1/monitors/{id}/pause' : '/api/v1/monitors/{id}/resume', path(id)),
    inAlert($pageAlert, t('monitors.page.changed', { verb }), t('monitors.page.changeFailed', { verb })),
    () => loadInto($monitor, () => api.GET('/api/v1/monitors/{id}', path(id)), serverOr(t('monitors.load.monitor'))),
  );
}

/** Quiet reloads for live updates, one at a time per part, kept only while the page shows `id`. */
function quiet(id: string) {
  const same = () => $monitor.get().status === 'ready' && ($monitor.get() as { data: Monitor }).data.id === id;
  const companyOf = () => ($monitor.get() as { data: Monitor }).data.company_id;
  return {
    monitor: () => refreshInto($monitor, () => api.GET('/api/v1/monitors/{id}', path(id)), same),
    uptime: () => refreshInto($uptime, () => api.GET('/api/v1/monitors/{id}/uptime', path(id)), same),
    // only the first page of checks moves; an older page stays where the user paged to
    checks: async () => {
      const shown = $checks.get();
      if (shown.status !== 'ready' || shown.data.before !== undefined) return;
      await refreshInto(
        $checks,
        async () => {
          const r = await api.GET('/api/v1/monitors/{id}/checks', { params: { path: { id }, query: { limit: CHECKS_PAGE } } });
          return { ...r, data: r.data ? { items: r.data, cursors: [], before: undefined } : undefined };
        },
        same,
      );
    },
    incidents: () =>
      refreshInto($incidents, () => api.GET('/api/v1/incidents', { params: { query: { monitor_id: id, tenant: companyOf() } } }), same),
    windows: () =>
      refreshInto(
        $windows,
        () => {
          const m = ($monitor.get() as { data: Monitor }).data;
          return api.GET('/api/v1/maintenance-windows', { params: { query: { tenant: m.company_id, monitor_id: id } } });
        },
        same,
      ),
  };
}

/** What a live message changes on the monitor page of `id`; returns the listener for onLive. */
export function monitorPageLive(id: string): (m: LiveMessage) => void {
  const q = quiet(id);
  const run = Object.fromEntries(Object.entries(q).map(([k, load]) => [k, coalesced(load)])) as Record<keyof typeof q, () => void>;
  return (m) => {
    if ($monitor.get().status !== 'ready') return;
    if (m.type === 'monitor') {
      const mine = m.monitors.find((x) => x.id === id);
      const current = $monitor.get() as { data: Monitor };
      if (mine) {
        $monitor.set({ status: 'ready', data: { ...current.data, ...mine } });
        run.checks();
      }
      if (m.reload) {
        run.monitor();
        run.uptime();
      }
    } else if (m.type === 'incident') run.incidents();
    else if (m.type === 'maintenance') run.windows();
    else if (m.type === 'resync') for (const load of Object.values(run)) load();
  };
}
