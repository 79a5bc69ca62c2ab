// Status-page subscribers (/settings/subscribers): company admins see their company's list and
// counts; super admins see the chosen tenant's (or all) and may remove a subscriber.
import { atom } from 'nanostores';
import type { components } from '../../../../api/schema.d.ts';
import { api } from '../../api.ts';
import { t } from '../../i18n.ts';
import { changeThenReload, inAlert, loadInto, serverOr, type Alert } from '../../stores/remote.ts';
import type { Load } from '../../ui/load.ts';

type S = components['schemas'];
export type Subscriber = S['Subscriber'];
export type SubscriberState = S['SubscriberState'];
export type SubscriberList = S['SubscriberList'];
export type SubscriberKind = S['SubscriberKind'];

export const SUBSCRIBER_KINDS: SubscriberKind[] = ['email', 'webhook', 'slack', 'teams', 'discord', 'sms'];

export const $subscribers = atom<Load<SubscriberList>>({ status: 'loading' });
export const $subscribersAlert = atom<Alert | null>(null);

export function loadSubscribers(tenant: string | null, state: SubscriberState | '', kind: SubscriberKind | '' = ''): Promise<void> {
  return loadInto(
    $subscribers,
    () =>
      api.GET('/api/v1/subscribers', {
        params: { query: { tenant: tenant ?? undefined, state: state || undefined, kind: kind || undefined, limit: 200 } },
      }),
    serverOr(t('subscribers.store.loadFailed')),
  );
}

export function removeSubscriber(
  s: Subscriber,
  tenant: string | null,
  state: SubscriberState | '',
  kind: SubscriberKind | '' = '',
): Promise<boolean> {
  return changeThenReload(
    () => api.DELETE('/api/v1/subscribers/{id}', { params: { path: { id: s.id } } }),
    inAlert($subscribersAlert, t('subscribers.store.removed'), t('subscribers.store.removeFailed')),
    () => loadSubscribers(tenant, state, kind),
  );
}

/** Who a subscriber is, in a row: the address, the number, or the webhook's host (a chat channel's service named). */
export function subscriberName(s: Subscriber): string {
  if (s.email) return s.email;
  if (s.phone) return s.phone;
  const host = s.webhook_host ?? '?';
  if (s.kind === 'webhook') return t('chatSubscribers.webhookTo', { host });
  return t('chatSubscribers.channelAt', { service: t(`chatSubscribers.kind.${s.kind}`), host });
}
