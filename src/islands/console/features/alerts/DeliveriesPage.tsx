// /notifications/deliveries: every alert delivery with its channel, event, state and attempts
// (time, answer code, latency, error), filtered by channel and state; failed and retrying ones
// have Retry. Alerts that went out together in one grouped message show it and open the group. The list reloads quietly every few seconds, as the delivery job works in the background.
import { useStore } from '@nanostores/react';
import { useEffect, useState } from 'react';
import { can } from '../../../../lib/permissions.ts';
import { channelTypeLabel } from '../../form-words.ts';
import { type ConsoleKey, t } from '../../i18n.ts';
import { $role } from '../../stores/auth.ts';
import { $selectedTenant } from '../../stores/tenant.ts';
import { fmtTime } from '../../ui/format.ts';
import { ListPage } from '../../ui/ListPage.tsx';
import { CHANNEL_TYPES, eventLabel, type ChannelType } from './channel-types.ts';
import {
  $channels,
  $deliveries,
  $deliveriesAlert,
  loadChannels,
  loadDeliveries,
  retryDelivery,
  type Delivery,
  type DeliveryFilter,
  type DeliveryState,
} from './store.ts';

const STATES: DeliveryState[] = ['pending', 'retrying', 'delivered', 'failed', 'grouped'];
const STATE_TONE: Record<DeliveryState, string> = {
  pending: 'sw-grey',
  retrying: 'sw-amber',
  delivered: 'sw-green',
  failed: 'sw-red',
  grouped: 'sw-grey',
};
const REFRESH_MS = 3000;
const stateText = (s: string) => t(`alerts.deliveries.state.${s}` as ConsoleKey);

/** A grouped message's carrier and the alerts it took along link to the whole group. */
function Group({ d, show }: { d: Delivery; show: (id: string) => void }) {
  const carrier = d.state === 'grouped' ? d.grouped_into : d.grouped_count > 0 ? d.id : null;
  if (!carrier) return null;
  const text = d.state === 'grouped' ? t('alerts.deliveries.inGroup') : t('alerts.deliveries.groupOf', { count: d.grouped_count + 1 });
  return (
    <div className="sw-muted">
      <div>{text}</div>
      <button type="button" className="sw-btn sw-btn-small" onClick={() => show(carrier)}>
        {t('alerts.deliveries.showGroup')}
      </button>
    </div>
  );
}

function Attempts({ d }: { d: Delivery }) {
  if (d.state === 'grouped') return <span className="sw-muted">{t('alerts.deliveries.noneOwn')}</span>;
  if (d.attempt_log.length === 0)
    return (
      <span className="sw-muted">
        {d.next_attempt_at
          ? t('alerts.deliveries.firstTry', { at: fmtTime(d.next_attempt_at, t('alerts.deliveries.soon')) })
          : t('alerts.deliveries.notTried')}
      </span>
    );
  return (
    <details>
      <summary>{t('alerts.deliveries.attempts', { count: d.attempt_log.length })}</summary>
      <ol className="sw-list">
        {d.attempt_log.map((a, i) => (
          <li key={i}>
            {fmtTime(a.at, '—')} · {a.status_code === null ? t('alerts.deliveries.noAnswer') : `HTTP ${a.status_code}`} ·{' '}
            {t('alerts.ms', { ms: a.latency_ms })}
            {a.error && <div className="sw-field-error sw-wrap-anywhere">{a.error}</div>}
          </li>
        ))}
      </ol>
      {d.state === 'retrying' && d.next_attempt_at && (
        <div className="sw-muted">{t('alerts.deliveries.nextTry', { at: fmtTime(d.next_attempt_at, t('alerts.deliveries.soon')) })}</div>
      )}
    </details>
  );
}

export function DeliveriesPage() {
  const role = useStore($role);
  const tenant = useStore($selectedTenant);
  const deliveries = useStore($deliveries);
  const channels = useStore($channels);
  const alert = useStore($deliveriesAlert);
  const [filter, setFilter] = useState<DeliveryFilter>({ channelId: '', state: '', group: '' });
  const scope = role === 'super_admin' ? tenant : null;
  const mayRetry = can(role, 'update', 'settings');
  useEffect(() => {
    $deliveriesAlert.set(null);
    void loadChannels(scope);
  }, [scope]);
  useEffect(() => {
    void loadDeliveries(scope, filter);
    const timer = setInterval(() => void loadDeliveries(scope, filter, true), REFRESH_MS);
    return () => clearInterval(timer);
  }, [scope, filter]);
  const channelList = channels.status === 'ready' ? channels.data : [];
  const columns = [
    t('alerts.col.channel'),
    t('alerts.deliveries.col.event'),
    t('alerts.col.state'),
    t('alerts.deliveries.col.attempts'),
    t('alerts.deliveries.col.created'),
  ];
  if (mayRetry) columns.push(t('alerts.col.actions'));
  return (
    <ListPage
      crumb={t('alerts.receipts')}
      title={t('alerts.deliveries.title')}
      note={t('alerts.deliveries.note')}
      toolbar={
        <fieldset className="sw-filters">
          <legend className="sw-visually-hidden">{t('alerts.deliveries.filter')}</legend>
          <label>
            {t('alerts.col.channel')}
            <select value={filter.channelId} onChange={(e) => setFilter({ ...filter, channelId: e.target.value })}>
              <option value="">{t('alerts.deliveries.everyChannel')}</option>
              {channelList.map((c) => (
                <option key={c.id} value={c.id}>
                  {c.name}
                </option>
              ))}
            </select>
          </label>
          <label>
            {t('alerts.col.state')}
            <select value={filter.state} onChange={(e) => setFilter({ ...filter, state: e.target.value as DeliveryFilter['state'] })}>
              <option value="">{t('alerts.deliveries.anyState')}</option>
              {STATES.map((s) => (
                <option key={s} value={s}>
                  {stateText(s)}
                </option>
              ))}
            </select>
          </label>
          {filter.group && (
            <button type="button" className="sw-btn sw-btn-small" onClick={() => setFilter({ ...filter, group: '' })}>
              {t('alerts.deliveries.showingGroup')}
            </button>
          )}
          <a className="sw-link" href="/settings/alerts">
            {t('alerts.title')}
          </a>
        </fieldset>
      }
      alert={alert}
      load={deliveries}
      onRetry={() => void loadDeliveries(scope, filter)}
      listTitle={t('alerts.deliveries.listTitle')}
      listId="alert-deliveries"
      empty={t('alerts.deliveries.empty')}
      columns={columns}
      row={(d) => {
        const cells = [
          <div>
            <strong>{d.channel_name}</strong>
            <div className="sw-muted">
              {CHANNEL_TYPES[d.channel_type as ChannelType] ? channelTypeLabel(d.channel_type) : d.channel_type}
            </div>
          </div>,
          eventLabel(d.event),
          <div>
            <span className={`sw-pill ${STATE_TONE[d.state]}`}>{stateText(d.state)}</span>
            <Group d={d} show={(group) => setFilter({ channelId: '', state: '', group })} />
          </div>,
          <Attempts d={d} />,
          fmtTime(d.created_at, '—'),
        ];
        if (mayRetry)
          cells.push(
            d.state === 'failed' || d.state === 'retrying' ? (
              <button
                type="button"
                className="sw-btn sw-btn-small"
                aria-label={t('alerts.deliveries.retryOne', { event: eventLabel(d.event), channel: d.channel_name })}
                onClick={() => void retryDelivery(d, scope, filter)}
              >
                {t('alerts.deliveries.retry')}
              </button>
            ) : (
              ''
            ),
          );
        return { key: d.id, cells };
      }}
    />
  );
}
