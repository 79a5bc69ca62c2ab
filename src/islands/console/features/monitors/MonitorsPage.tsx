// /monitors (and the spec's /my-monitors): every monitor of the company, or of all companies or
// the chosen one for the super admin, searched, filtered and sorted by the server and rendered as
// a window of rows that follows the scroll (10,000 monitors render like 30); bulk pause/resume/
// archive, and archived monitors listed apart, to be restored.
// Viewers read it without any button that would change a monitor. The table keeps its semantics:
// aria-rowcount and aria-rowindex tell screen readers where the rendered rows sit.
import { useStore } from '@nanostores/react';
import { useEffect, useRef, useState } from 'react';
import { can } from '../../../../lib/permissions.ts';
import { failingText } from '../../../../lib/monitor-locations.ts';
import { t } from '../../i18n.ts';
import { $role } from '../../stores/auth.ts';
import { $flags } from '../../stores/flags.ts';
import { $selectedTenant } from '../../stores/tenant.ts';
import { onLive } from '../../stores/live.ts';
import { Skeleton } from '../../ui/Card.tsx';
import { fmtNumber, fmtTime } from '../../ui/format.ts';
import { KIND_LABELS, KIND_ORDER } from './form.ts';
import { MonitorDialog } from './MonitorDialog.tsx';
import { blocksOf } from './row-window.ts';
import { Sparkline } from './Sparkline.tsx';
import { useRowWindow } from './use-row-window.ts';
import {
  $listQuery,
  $monitorAlert,
  $monitorList,
  $selected,
  applyLiveMonitors,
  BLOCK_SIZE,
  bulkSetArchived,
  bulkSetPaused,
  firstOrder,
  loadMonitors,
  needRows,
  reloadMonitors,
  reloadMonitorsQuietly,
  setArchived,
  setListQuery,
  setPaused,
  STATUS_TEXT,
  toggleSelected,
  withQuery,
  type ListQuery,
  type MonitorRow,
  type MonitorStatus,
  type SortKey,
} from './store.ts';
import { SortButton, sortOf } from '../../ui/Table.tsx';
import '../../ui/filters.css';
import { targetOf } from './monitor-target.ts';
import './monitors.css';

const SORT_CHOICES = (): Array<[string, string]> => [
  ['created_at desc', t('monitors.sort.newest')],
  ['created_at asc', t('monitors.sort.oldest')],
  ['name asc', t('monitors.sort.nameAsc')],
  ['name desc', t('monitors.sort.nameDesc')],
  ['status asc', t('monitors.sort.statusAsc')],
  ['status desc', t('monitors.sort.statusDesc')],
  ['type asc', t('monitors.sort.kindAsc')],
  ['type desc', t('monitors.sort.kindDesc')],
  ['last_response_time desc', t('monitors.sort.slowest')],
  ['last_response_time asc', t('monitors.sort.fastest')],
  ['last_checked_at desc', t('monitors.sort.checkedRecently')],
  ['last_checked_at asc', t('monitors.sort.checkedLongAgo')],
];

type Column =
  | 'select'
  | 'status'
  | 'name'
  | 'kind'
  | 'target'
  | 'uptime24h'
  | 'uptime30d'
  | 'response'
  | 'last24h'
  | 'lastChecked'
  | 'actions';
const columnLabel = (c: Column) =>
  ({
    select: t('monitors.list.col.select'),
    status: t('monitors.list.col.status'),
    name: t('monitors.list.col.name'),
    kind: t('monitors.list.col.kind'),
    target: t('monitors.list.col.target'),
    uptime24h: t('monitors.list.col.uptime24h'),
    uptime30d: t('monitors.list.col.uptime30d'),
    response: t('monitors.list.col.response'),
    last24h: t('monitors.list.col.last24h'),
    lastChecked: t('monitors.list.col.lastChecked'),
    actions: t('monitors.list.col.actions'),
  })[c];

const pct = (n: number | null) => (n === null ? '—' : `${fmtNumber(n, n === 100 ? 0 : 2)}%`);

export function MonitorsPage() {
  const role = useStore($role);
  const tenant = useStore($selectedTenant);
  const flags = useStore($flags);
  const list = useStore($monitorList);
  const query = useStore($listQuery);
  const selected = useStore($selected);
  const alert = useStore($monitorAlert);
  const [editing, setEditing] = useState<MonitorRow | 'new' | null>(null);
  const mayCreate = can(role, 'create', 'monitors');
  const mayChange = can(role, 'update', 'monitors');
  const bulk = mayChange && flags.ENABLE_BULK_OPERATIONS !== false;
  const superAdmin = role === 'super_admin';
  const scopeTenant = superAdmin ? tenant : null;

  useEffect(() => {
    $monitorAlert.set(null);
    $selected.set(new Set());
    void loadMonitors(scopeTenant);
  }, [scopeTenant]);
  useEffect(
    () =>
      onLive((m) => {
        if (m.type === 'monitor') applyLiveMonitors(m);
        else if (m.type === 'resync') reloadMonitorsQuietly();
      }),
    [],
  );

  const total = list.status === 'ready' ? list.data.total : 0;
  const rows = list.status === 'ready' ? list.data.rows : [];
  const { range: visible, rowHeight, bodyRef } = useRowWindow(total);
  // a shorter answer renders at once, before the window has been measured against it again
  const range = { start: Math.min(visible.start, total), end: Math.min(visible.end, total) };
  useEffect(() => needRows(blocksOf(visible, BLOCK_SIZE), visible), [visible, list]);
  const loaded = rows.filter((m): m is MonitorRow => m !== undefined);
  const allLoaded = loaded.length > 0 && loaded.every((m) => selected.has(m.id));
  const columns: Column[] = [
    ...(bulk ? (['select'] as const) : []),
    'status',
    'name',
    'kind',
    'target',
    'uptime24h',
    'uptime30d',
    'response',
    'last24h',
    'lastChecked',
    ...(mayChange ? (['actions'] as const) : []),
  ];
  const sortable: Partial<Record<Column, SortKey>> = {
    status: 'status',
    name: 'name',
    kind: 'type',
    response: 'last_response_time',
    lastChecked: 'last_checked_at',
  };

  return (
    <div className="sw-admin">
      <nav aria-label={t('monitors.breadcrumb')} className="sw-breadcrumb">
        <a href="/dashboard">{t('monitors.breadcrumbDashboard')}</a> / <span aria-current="page">{t('monitors.title')}</span>
      </nav>
      <div className="sw-page-head sw-row-between">
        <h2 className="sw-page-title">{t('monitors.title')}</h2>
        {mayCreate && (
          <button type="button" className="sw-btn sw-btn-primary" onClick={() => setEditing('new')}>
            {t('monitors.add')}
          </button>
        )}
      </div>
      {alert && !editing && (
        <div className={alert.ok ? 'sw-banner sw-banner-ok' : 'sw-banner sw-banner-error'} role="alert">
          {alert.text}
        </div>
      )}
      <Filters query={query} />
      {list.status === 'error' && (
        <div className="sw-banner sw-banner-error" role="alert">
          {list.message}
          <button type="button" className="sw-btn sw-btn-small" onClick={() => void loadMonitors()}>
            {t('monitors.retry')}
          </button>
        </div>
      )}
      <section className="sw-card" aria-labelledby="monitor-list">
        <header className="sw-card-head sw-row-between">
          <h3 id="monitor-list">
            {t(query.archived ? 'monitors.list.headArchived' : superAdmin && !tenant ? 'monitors.list.headAll' : 'monitors.list.head', {
              count: fmtNumber(total),
            })}
          </h3>
          {bulk && selected.size > 0 && (
            <fieldset className="sw-mon-bulk">
              <legend className="sw-visually-hidden">{t('monitors.bulk.legend')}</legend>
              <span>{t('monitors.bulk.selected', { count: selected.size })}</span>
              {query.archived ? (
                <button type="button" className="sw-btn sw-btn-small" onClick={() => void bulkSetArchived(false)}>
                  {t('monitors.bulk.restore')}
                </button>
              ) : (
                <>
                  <button type="button" className="sw-btn sw-btn-small" onClick={() => void bulkSetPaused(true)}>
                    {t('monitors.bulk.pause')}
                  </button>
                  <button type="button" className="sw-btn sw-btn-small" onClick={() => void bulkSetPaused(false)}>
                    {t('monitors.bulk.resume')}
                  </button>
                  <button type="button" className="sw-btn sw-btn-small" onClick={() => void bulkSetArchived(true)}>
                    {t('monitors.bulk.archive')}
                  </button>
                </>
              )}
            </fieldset>
          )}
        </header>
        {list.status === 'loading' && <Skeleton rows={6} />}
        {list.status === 'ready' && total === 0 && (
          <p className="sw-empty">
            {query.q || query.status || query.type || query.visibility
              ? t('monitors.list.emptyFiltered')
              : query.archived
                ? t('monitors.list.emptyArchived')
                : mayCreate
                  ? t('monitors.list.emptyFirst')
                  : t('monitors.list.empty')}
          </p>
        )}
        {total > 0 && (
          <div className="sw-table-wrap">
            <table
              className="sw-table sw-table-stack sw-table-compact sw-mon-table"
              aria-labelledby="monitor-list"
              aria-rowcount={total + 1}
              aria-busy={list.status === 'ready' && list.data.stale}
            >
              <thead>
                <tr aria-rowindex={1}>
                  {columns.map((c) => {
                    const key = sortable[c];
                    if (c === 'select')
                      return (
                        <th scope="col" key={c}>
                          <input
                            type="checkbox"
                            aria-label={t('monitors.list.selectAll')}
                            checked={allLoaded}
                            onChange={(e) => $selected.set(new Set(e.target.checked ? loaded.map((m) => m.id) : []))}
                          />
                        </th>
                      );
                    if (!key)
                      return (
                        <th scope="col" key={c}>
                          {columnLabel(c)}
                        </th>
                      );
                    const active = query.sort === key;
                    return (
                      <th scope="col" key={c} aria-sort={sortOf(active, query.order)}>
                        <SortButton
                          label={columnLabel(c)}
                          active={active}
                          order={query.order}
                          onClick={() =>
                            void setListQuery(
                              withQuery(query, {
                                sort: key,
                                order: active ? (query.order === 'asc' ? 'desc' : 'asc') : firstOrder(key),
                              }),
                            )
                          }
                        />
                      </th>
                    );
                  })}
                </tr>
              </thead>
              <tbody ref={bodyRef}>
                {range.start > 0 && <Spacer height={range.start * rowHeight} columns={columns.length} />}
                {Array.from({ length: range.end - range.start }, (_, k) => {
                  const at = range.start + k;
                  const m = rows[at];
                  if (!m)
                    return (
                      <tr key={`row-${at}`} aria-rowindex={at + 2} style={{ height: rowHeight }}>
                        <td colSpan={columns.length} className="sw-muted">
                          {t('monitors.list.loadingRow')}
                        </td>
                      </tr>
                    );
                  const st = m.archived_at
                    ? { text: t('monitors.status.archived'), tone: 'grey' }
                    : m.in_maintenance && m.status !== 'paused'
                      ? { text: t('monitors.status.maintenance'), tone: 'grey' }
                      : STATUS_TEXT[m.status];
                  const cells = [
                    ...(bulk
                      ? [
                          <input
                            type="checkbox"
                            aria-label={t('monitors.list.selectOne', { name: m.name })}
                            checked={selected.has(m.id)}
                            onChange={(e) => toggleSelected(m.id, e.target.checked)}
                          />,
                        ]
                      : []),
                    <span className={`sw-pill sw-${st.tone}`}>{st.text}</span>,
                    // one box: the narrow layout draws a cell as label and value, so its lines stay in the value
                    <div>
                      <a className="sw-mon-name" href={`/monitors/${m.id}`}>
                        {m.name}
                      </a>
                      {superAdmin && m.tenant_name && <div className="sw-muted sw-small">{m.tenant_name}</div>}
                      {(m.status === 'down' || m.status === 'degraded') && failingText(m.location_status) && (
                        <div className="sw-small sw-loc-failing">{failingText(m.location_status)}</div>
                      )}
                    </div>,
                    KIND_LABELS[m.type],
                    <span className="sw-wrap-anywhere">{targetOf(m)}</span>,
                    pct(m.uptime_24h),
                    pct(m.uptime_30d),
                    m.last_response_time == null ? '—' : t('monitors.ms', { ms: fmtNumber(m.last_response_time) }),
                    <Sparkline
                      points={m.sparkline}
                      label={
                        m.sparkline_unit === 'check'
                          ? t('monitors.list.sparkChecks', { name: m.name, count: m.sparkline.length })
                          : t('monitors.list.spark24h', { name: m.name })
                      }
                    />,
                    fmtTime(m.last_checked_at, t('monitors.never')),
                    ...(mayChange && query.archived
                      ? [
                          <button
                            type="button"
                            className="sw-btn sw-btn-small"
                            aria-label={t('monitors.list.restoreOne', { name: m.name })}
                            onClick={() => void setArchived(m.id, false)}
                          >
                            {t('monitors.restore')}
                          </button>,
                        ]
                      : []),
                    ...(mayChange && !query.archived
                      ? [
                          <>
                            <button
                              type="button"
                              className="sw-btn sw-btn-small"
                              aria-label={t('monitors.list.editOne', { name: m.name })}
                              onClick={() => setEditing(m)}
                            >
                              {t('monitors.edit')}
                            </button>
                            <button
                              type="button"
                              className="sw-btn sw-btn-small"
                              aria-label={t(m.is_paused ? 'monitors.list.resumeOne' : 'monitors.list.pauseOne', { name: m.name })}
                              onClick={() => void setPaused(m.id, !m.is_paused)}
                            >
                              {m.is_paused ? t('monitors.resume') : t('monitors.pause')}
                            </button>
                          </>,
                        ]
                      : []),
                  ];
                  return (
                    <tr key={m.id} aria-rowindex={at + 2} data-loaded={m.id}>
                      {cells.map((cell, i) => (
                        <td
                          key={columns[i]}
                          data-label={columnLabel(columns[i])}
                          className={columns[i] === 'actions' ? 'sw-actions' : undefined}
                        >
                          {cell}
                        </td>
                      ))}
                    </tr>
                  );
                })}
                {range.end < total && <Spacer height={(total - range.end) * rowHeight} columns={columns.length} />}
              </tbody>
            </table>
          </div>
        )}
      </section>
      {editing && (
        <MonitorDialog
          monitor={editing === 'new' ? null : editing}
          onClose={() => setEditing(null)}
          onSaved={(text) => {
            $monitorAlert.set({ ok: true, text });
            void reloadMonitors();
          }}
        />
      )}
    </div>
  );
}

/** The rows above and below the rendered window, as one empty row of their height each. */
function Spacer({ height, columns }: { height: number; columns: number }) {
  return (
    // biome-ignore lint/a11y/noAriaHiddenOnFocusable: an empty row with nothing to focus; hidden so screen readers meet only real rows (aria-rowindex tells where they sit)
    <tr aria-hidden="true" className="sw-mon-spacer">
      <td colSpan={columns} style={{ height }} />
    </tr>
  );
}

/**
 * A keystroke asks the server once typing pauses this long: short, so the list follows within
 * 100 ms; each newer keystroke aborts the older call (store.ts).
 */
const SEARCH_PAUSE_MS = 30;

function Filters({ query }: { query: ListQuery }) {
  const [text, setText] = useState(query.q);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  const onSearch = (value: string) => {
    setText(value);
    clearTimeout(timer.current);
    timer.current = setTimeout(() => void setListQuery(withQuery($listQuery.get(), { q: value })), SEARCH_PAUSE_MS);
  };
  useEffect(() => () => clearTimeout(timer.current), []);
  const set = (change: Partial<ListQuery>) => void setListQuery(withQuery(query, change));
  return (
    <form className="sw-filters sw-mon-filters" aria-label={t('monitors.filters.label')} onSubmit={(e) => e.preventDefault()}>
      <label className="sw-mon-search">
        <span>{t('monitors.filters.search')}</span>
        <input
          type="search"
          placeholder={t('monitors.filters.searchPlaceholder')}
          value={text}
          onChange={(e) => onSearch(e.target.value)}
          maxLength={200}
        />
      </label>
      <label>
        {t('monitors.filters.status')}{' '}
        <select
          aria-label={t('monitors.filters.status')}
          value={query.status}
          onChange={(e) => set({ status: e.target.value as ListQuery['status'] })}
        >
          <option value="">{t('monitors.filters.all')}</option>
          {(Object.keys(STATUS_TEXT) as MonitorStatus[]).map((s) => (
            <option key={s} value={s}>
              {STATUS_TEXT[s].text}
            </option>
          ))}
        </select>
      </label>
      <label>
        {t('monitors.filters.kind')}{' '}
        <select
          aria-label={t('monitors.filters.kind')}
          value={query.type}
          onChange={(e) => set({ type: e.target.value as ListQuery['type'] })}
        >
          <option value="">{t('monitors.filters.all')}</option>
          {KIND_ORDER.map((k) => (
            <option key={k} value={k}>
              {KIND_LABELS[k]}
            </option>
          ))}
        </select>
      </label>
      <label>
        {t('monitors.filters.sortBy')}{' '}
        <select
          aria-label={t('monitors.filters.sortBy')}
          value={`${query.sort} ${query.order}`}
          onChange={(e) => {
            const [sort, order] = e.target.value.split(' ') as [SortKey, 'asc' | 'desc'];
            set({ sort, order });
          }}
        >
          {SORT_CHOICES().map(([value, text]) => (
            <option key={value} value={value}>
              {text}
            </option>
          ))}
        </select>
      </label>
      <label>
        {t('monitors.filters.visibility')}{' '}
        <select
          aria-label={t('monitors.filters.visibility')}
          value={query.visibility}
          onChange={(e) => set({ visibility: e.target.value as ListQuery['visibility'] })}
        >
          <option value="">{t('monitors.filters.all')}</option>
          <option value="public">{t('monitors.filters.public')}</option>
          <option value="private">{t('monitors.filters.private')}</option>
        </select>
      </label>
      <label className="sw-mon-archived">
        <input type="checkbox" checked={query.archived} onChange={(e) => set({ archived: e.target.checked })} />{' '}
        {t('monitors.filters.archived')}
      </label>
    </form>
  );
}
