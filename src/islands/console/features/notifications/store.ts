// The notifications page (spec section 2): list with filters, counts, preferences and the
// read/delete actions. Load, preference and action failures are logged only (section 8).
import { atom } from 'nanostores';
import type { components } from '../../../../api/schema.d.ts';
import { api, errorText } from '../../api.ts';
import { changeThenReload, dataOrLog, inToast } from '../../stores/remote.ts';
import { showToast } from '../../stores/toast.ts';
import { t, type ConsoleKey } from '../../i18n.ts';

export type Notification = components['schemas']['Notification'];
export type Preferences = components['schemas']['Preferences'];
export type Severity = components['schemas']['Severity'];
export type NotificationType = components['schemas']['NotificationType'];

export const SEVERITIES: readonly Severity[] = ['critical', 'high', 'medium', 'low', 'info'];
export const TYPES: readonly NotificationType[] = [
  'monitor_incident',
  'ssl_warning',
  'dns_warning',
  'security_report',
  'system',
  'anomaly',
];

export interface Filters {
  status: '' | 'unread' | 'read';
  severity: '' | Severity;
  type: '' | NotificationType;
}

export const $filters = atom<Filters>({ status: '', severity: '', type: '' });
export const $notifications = atom<Notification[]>([]);
export const $notificationsLoading = atom(true);
export const $preferences = atom<Preferences | null>(null);
export interface Counts {
  unread: number;
  read: number;
}
/** Counts of all the user's notifications, whatever the filters show (the header and its buttons). */
export const $counts = atom<Counts>({ unread: 0, read: 0 });

type Query = { is_read?: boolean; severity?: Severity; notification_type?: NotificationType };

function queryOf(f: Filters): Query {
  // filters that are empty are omitted from the query
  const query: Query = {};
  if (f.status) query.is_read = f.status === 'read';
  if (f.severity) query.severity = f.severity;
  if (f.type) query.notification_type = f.type;
  return query;
}

function fetchList(query: Query): Promise<Notification[] | null> {
  return dataOrLog(() => api.GET('/api/v1/notifications/', { params: { query } }), 'Failed to load notifications');
}

function fetchCounts(): Promise<Counts | null> {
  return dataOrLog(() => api.GET('/api/v1/notifications/counts'), 'Failed to load notification counts');
}

let loads = 0;

/** The filtered list, and the counts of all the user's notifications (whatever the filter). */
export async function loadNotifications(): Promise<void> {
  const seq = ++loads;
  $notificationsLoading.set(true);
  const [list, counts] = await Promise.all([fetchList(queryOf($filters.get())), fetchCounts()]);
  if (seq !== loads) return; // a newer load (another filter, an action) answers instead
  if (list) $notifications.set(list);
  if (counts) $counts.set(counts);
  $notificationsLoading.set(false);
}

export function setFilter<K extends keyof Filters>(key: K, value: Filters[K]): void {
  $filters.set({ ...$filters.get(), [key]: value });
  void loadNotifications();
}

export async function loadPreferences(): Promise<void> {
  const data = await dataOrLog(() => api.GET('/api/v1/notifications/preferences'), 'Failed to load notification preferences');
  if (data) $preferences.set(data);
}

/** The switches of the preferences (the addresses are saved by saveAddress). */
export type PreferenceSwitch = Exclude<keyof Preferences, 'phone' | 'webhook_url' | 'webhook_secret'>;

/** A new personal webhook's signing secret, shown once after the save that made it. */
export const $webhookSecret = atom<string | null>(null);

/** The delivery channels (how alerts reach the person) and the categories (which ones), as the preferences screen groups them. */
export const DELIVERY_SWITCHES: ReadonlyArray<[PreferenceSwitch, ConsoleKey]> = [
  ['email_enabled', 'notifications.switch.email'],
  ['sms_enabled', 'notifications.switch.sms'],
  ['webhook_enabled', 'notifications.switch.webhook'],
];
export const CATEGORY_SWITCHES: ReadonlyArray<[PreferenceSwitch, ConsoleKey]> = [
  ['monitor_incidents', 'notifications.switch.monitorIncidents'],
  ['ssl_warnings', 'notifications.switch.sslWarnings'],
  ['dns_warnings', 'notifications.switch.dnsWarnings'],
  ['security_alerts', 'notifications.switch.securityAlerts'],
  ['system_notifications', 'notifications.switch.systemNotifications'],
];
export type PreferenceSwitches = Record<PreferenceSwitch, boolean>;

/** Saves the switches as drafted on the screen; answers the server's refusal, if any. */
export async function savePreferences(switches: PreferenceSwitches): Promise<string | null> {
  const r = await api.PUT('/api/v1/notifications/preferences', { body: switches });
  if (!r.data) return errorText(r.error, t('notifications.store.saveFailed'));
  const { webhook_secret: _s, ...prefs } = r.data;
  $preferences.set(prefs);
  showToast(t('notifications.store.saved'));
  return null;
}

function act(call: () => Promise<{ data?: unknown; error?: unknown }>, toast: string, what: string): Promise<boolean> {
  return changeThenReload(call, inToast(toast, `Failed to ${what}`), loadNotifications);
}

export function markRead(id: string): Promise<boolean> {
  return act(
    () => api.PATCH('/api/v1/notifications/{id}/read', { params: { path: { id } }, body: {} }),
    t('notifications.store.markedRead'),
    'mark the notification read',
  );
}
export function markAllRead(): Promise<boolean> {
  return act(() => api.PATCH('/api/v1/notifications/mark-all-read'), t('notifications.store.allMarkedRead'), 'mark all notifications read');
}
export function deleteNotification(id: string): Promise<boolean> {
  return act(
    () => api.DELETE('/api/v1/notifications/{id}', { params: { path: { id } } }),
    t('notifications.store.deleted'),
    'delete the notification',
  );
}
export function clearRead(): Promise<boolean> {
  return act(() => api.DELETE('/api/v1/notifications/delete-all-read'), t('notifications.store.readCleared'), 'clear read notifications');
}

function idIn(metadata: Notification['metadata'], key: string): string | null {
  const v = metadata && typeof metadata === 'object' ? (metadata as Record<string, unknown>)[key] : null;
  return typeof v === 'string' && /^[\w-]+$/.test(v) ? v : null;
}

/** Where a card leads: its action_url, with the links written before the monitor and incident
 *  screens ('/monitors?monitor=ID', '/monitors?incident=ID') sent to those screens; without a
 *  link, the incident or monitor its metadata names. */
export function actionPath(n: Pick<Notification, 'action_url' | 'metadata'>): string | null {
  if (n.action_url) {
    const legacy = /^\/monitors\?(incident|monitor)=([\w-]+)$/.exec(n.action_url);
    if (!legacy) return n.action_url;
    return legacy[1] === 'incident' ? `/monitors/incidents/${legacy[2]}` : `/monitors/${legacy[2]}`;
  }
  const incident = idIn(n.metadata, 'incident_id');
  if (incident) return `/monitors/incidents/${incident}`;
  const monitor = idIn(n.metadata, 'monitor_id');
  return monitor ? `/monitors/${monitor}` : null;
}

/** What a card says: the message, a sentence, and the details when the message does not already
 *  hold them. The metadata is for links, never shown raw. */
export function notificationText(n: Pick<Notification, 'message' | 'details'>): string[] {
  const lines = [n.message];
  if (n.details && !n.message.includes(n.details)) lines.push(n.details);
  return lines;
}

/** Clicking a card marks it read and follows its link (same-site paths and http(s) only). */
export async function openNotification(n: Notification): Promise<void> {
  if (!n.is_read) await markRead(n.id);
  const path = actionPath(n);
  if (!path) return;
  try {
    const url = new URL(path, location.href);
    if (url.protocol === 'http:' || url.protocol === 'https:') window.location.assign(url.href);
  } catch {
    /* not a URL: stay */
  }
}

/** Saves the phone or the webhook URL (empty removes it); answers the server's refusal, if any. */
export async function saveAddress(key: 'phone' | 'webhook_url', value: string): Promise<string | null> {
  const r = await api.PUT('/api/v1/notifications/preferences', { body: { [key]: value.trim() || null } });
  if (!r.data) return errorText(r.error, t('notifications.store.saveFailed'));
  const { webhook_secret, ...prefs } = r.data;
  $preferences.set(prefs);
  if (webhook_secret) $webhookSecret.set(webhook_secret);
  showToast(t('notifications.store.saved'));
  return null;
}
