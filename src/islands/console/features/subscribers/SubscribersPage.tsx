// /settings/subscribers: who follows the company's status page (e-mail, webhook, a Slack, Teams
// or Discord channel, SMS), in which state, for which components, with counts per state,
// filtered by state and kind. Company admins view; super admins also
// remove (the role table gives delete to them alone).
import { useStore } from '@nanostores/react';
import { useEffect, useState } from 'react';
import { can } from '../../../../lib/permissions.ts';
import { $role } from '../../stores/auth.ts';
import { $selectedTenant } from '../../stores/tenant.ts';
import { fmtTime } from '../../ui/format.ts';
import { ListPage } from '../../ui/ListPage.tsx';
import { Confirm } from '../../ui/Modal.tsx';
import type { Load } from '../../ui/load.ts';
import {
  $subscribers,
  $subscribersAlert,
  loadSubscribers,
  removeSubscriber,
  SUBSCRIBER_KINDS,
  subscriberName,
  type Subscriber,
  type SubscriberKind,
  type SubscriberState,
} from './store.ts';
import { t } from '../../i18n.ts';

const STATES: SubscriberState[] = ['confirmed', 'pending', 'unsubscribed'];
const STATE_TONE: Record<SubscriberState, string> = { confirmed: 'sw-green', pending: 'sw-amber', unsubscribed: 'sw-grey' };

export function SubscribersPage() {
  const role = useStore($role);
  const tenant = useStore($selectedTenant);
  const list = useStore($subscribers);
  const alert = useStore($subscribersAlert);
  const [state, setState] = useState<SubscriberState | ''>('');
  const [kind, setKind] = useState<SubscriberKind | ''>('');
  const [removing, setRemoving] = useState<Subscriber | null>(null);
  const scope = role === 'super_admin' ? tenant : null;
  const mayRemove = can(role, 'delete', 'settings');
  useEffect(() => {
    $subscribersAlert.set(null);
  }, [scope]);
  useEffect(() => {
    void loadSubscribers(scope, state, kind);
  }, [scope, state, kind]);
  const rows: Load<Subscriber[]> = list.status === 'ready' ? { status: 'ready', data: list.data.subscribers } : list;
  const counts = list.status === 'ready' ? list.data.counts : null;
  const off = list.status === 'ready' && !list.data.enabled;
  const columns = [
    t('subscribers.col.subscriber'),
    t('subscribers.col.state'),
    t('subscribers.col.components'),
    t('subscribers.col.subscribed'),
  ];
  if (mayRemove) columns.push(t('subscribers.col.actions'));
  return (
    <ListPage
      crumb={t('subscribers.crumb')}
      title={t('subscribers.title')}
      note={
        counts
          ? `${t('subscribers.counts', { confirmed: counts.confirmed, pending: counts.pending, unsubscribed: counts.unsubscribed })}${off ? ` ${t('subscribers.notificationsOff')}` : ''}`
          : undefined
      }
      toolbar={
        <fieldset className="sw-filters">
          <legend className="sw-visually-hidden">{t('subscribers.filter')}</legend>
          <label>
            {t('subscribers.filterState')}
            <select value={state} onChange={(e) => setState(e.target.value as SubscriberState | '')}>
              <option value="">{t('subscribers.anyState')}</option>
              {STATES.map((s) => (
                <option key={s} value={s}>
                  {t(`subscribers.state.${s}`)}
                </option>
              ))}
            </select>
          </label>
          <label>
            {t('chatSubscribers.filterKind')}
            <select value={kind} onChange={(e) => setKind(e.target.value as SubscriberKind | '')}>
              <option value="">{t('chatSubscribers.anyKind')}</option>
              {SUBSCRIBER_KINDS.map((k) => (
                <option key={k} value={k}>
                  {t(`chatSubscribers.kind.${k}`)}
                </option>
              ))}
            </select>
          </label>
        </fieldset>
      }
      alert={alert}
      load={rows}
      onRetry={() => void loadSubscribers(scope, state, kind)}
      listTitle={t('subscribers.title')}
      listId="status-subscribers"
      empty={t('subscribers.empty')}
      columns={columns}
      row={(s) => {
        const cells = [
          <div className="sw-wrap-anywhere">
            <strong>{subscriberName(s)}</strong>
            <div className="sw-muted">{t(`chatSubscribers.kind.${s.kind}`)}</div>
          </div>,
          <span className={`sw-pill ${STATE_TONE[s.state]}`}>{t(`subscribers.state.${s.state}`)}</span>,
          s.component_ids === null ? t('subscribers.componentsAll') : t('subscribers.componentsChosen', { count: s.component_ids.length }),
          fmtTime(s.confirmed_at ?? s.created_at, '—'),
        ];
        if (mayRemove)
          cells.push(
            <button
              type="button"
              className="sw-btn sw-btn-small sw-btn-danger"
              aria-label={t('subscribers.removeNamed', { name: subscriberName(s) })}
              onClick={() => setRemoving(s)}
            >
              {t('subscribers.remove')}
            </button>,
          );
        return { key: s.id, cells };
      }}
    >
      {removing && (
        <Confirm
          title={t('subscribers.confirmTitle')}
          danger
          confirmLabel={t('subscribers.remove')}
          text={t('subscribers.confirmText', { name: subscriberName(removing) })}
          onCancel={() => setRemoving(null)}
          onConfirm={() => {
            const s = removing;
            setRemoving(null);
            void removeSubscriber(s, scope, state, kind);
          }}
        />
      )}
    </ListPage>
  );
}
