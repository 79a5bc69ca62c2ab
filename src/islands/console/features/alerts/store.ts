// Alert channels (/settings/alerts) and their delivery receipts (/notifications/deliveries):
// company admins list, create, edit, enable or disable, test and retry; super admins also delete,
// and act in the tenant chosen in the selector.
import { atom } from 'nanostores';
import type { components } from '../../../../api/schema.d.ts';
import { api, errorText } from '../../api.ts';
import { channelFieldWords } from '../../form-words.ts';
import { consoleLocale, t } from '../../i18n.ts';
import { dataOrLog, loadInto, serverOr, type Alert } from '../../stores/remote.ts';
import type { Load } from '../../ui/load.ts';
import { CHANNEL_TYPES, eventLabel, type AlertEvent, type ChannelType, type Severity } from './channel-types.ts';

type S = components['schemas'];
export type Channel = S['AlertChannel'];
export type Delivery = S['AlertDeliveryReceipt'];
export type DeliveryState = S['DeliveryState'];

export const $channels = atom<Load<Channel[]>>({ status: 'loading' });
export const $channelsAlert = atom<Alert | null>(null);
export const $deliveries = atom<Load<Delivery[]>>({ status: 'loading' });
export const $deliveriesAlert = atom<Alert | null>(null);
export const $alertMonitors = atom<{ id: string; name: string }[]>([]);

const tenantQuery = (tenant: string | null) => ({ tenant: tenant ?? undefined });

export function loadChannels(tenant: string | null): Promise<void> {
  return loadInto(
    $channels,
    () => api.GET('/api/v1/alert-channels', { params: { query: tenantQuery(tenant) } }),
    serverOr(t('alerts.load.channels')),
  );
}

export interface DeliveryFilter {
  channelId: string;
  state: DeliveryState | '';
  /** A delivery id: that grouped message and the alerts it carried ('' : all) */
  group: string;
}

export function loadDeliveries(tenant: string | null, f: DeliveryFilter, quiet = false): Promise<void> {
  const call = () =>
    api.GET('/api/v1/alert-deliveries', {
      params: {
        query: {
          ...tenantQuery(tenant),
          channel_id: f.channelId || undefined,
          state: f.state || undefined,
          group: f.group || undefined,
          limit: 100,
        },
      },
    });
  // A quiet reload (polling) keeps the rows on screen instead of a skeleton.
  if (quiet)
    return dataOrLog(call, 'Failed to reload deliveries').then((data) => {
      if (data) $deliveries.set({ status: 'ready', data });
    });
  return loadInto($deliveries, call, serverOr(t('alerts.load.deliveries')));
}

export async function loadAlertMonitors(tenant: string | null): Promise<void> {
  const data = await dataOrLog(
    () => api.GET('/api/v1/monitors', { params: { query: { ...tenantQuery(tenant), limit: 200, sort: 'name' } } }),
    'Failed to load monitors for the channel form',
  );
  if (data) $alertMonitors.set(data.map((m) => ({ id: m.id, name: m.name })));
}

export interface ChannelForm {
  name: string;
  type: ChannelType;
  /** every config field as typed; e-mail's `to` one address per line */
  config: Record<string, string>;
  events: AlertEvent[];
  /** null: every monitor */
  monitorIds: string[] | null;
  minSeverity: Severity;
  enabled: boolean;
}

export function emptyChannel(): ChannelForm {
  return {
    name: '',
    type: 'webhook',
    config: {},
    events: ['incident.opened', 'incident.resolved'],
    monitorIds: null,
    minSeverity: 'info',
    enabled: true,
  };
}

export function formOf(c: Channel): ChannelForm {
  const config: Record<string, string> = {};
  for (const [k, v] of Object.entries(c.config)) config[k] = Array.isArray(v) ? v.join('\n') : v == null ? '' : String(v);
  return {
    name: c.name,
    type: c.type,
    config,
    events: c.events,
    monitorIds: c.monitor_ids,
    minSeverity: c.min_severity,
    enabled: c.enabled,
  };
}

/**
 * The config the server gets: only the type's fields; empty optional fields left out; on edit an
 * empty secret is left out, so the server keeps the stored one.
 */
export function configPayload(f: ChannelForm, editing: boolean): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const field of CHANNEL_TYPES[f.type].fields) {
    const raw = (f.config[field.key] ?? '').trim();
    // An empty optional text sends "" so an edit can clear it (a secret's keeps it: left out below).
    if (field.input === 'multiline' && field.optional && !field.secret && editing) {
      out[field.key] = raw;
      continue;
    }
    if (field.input === 'lines') {
      out[field.key] = raw
        .split(/[\n,;]+/)
        .map((s) => s.trim())
        .filter(Boolean);
      continue;
    }
    if (!raw && (field.optional || (field.secret && editing))) continue;
    out[field.key] = raw;
  }
  return out;
}

export function validateChannel(f: ChannelForm, editing: boolean): Record<string, string> {
  const e: Record<string, string> = {};
  if (!f.name.trim()) e.name = t('alerts.form.nameRequired');
  for (const field of CHANNEL_TYPES[f.type].fields) {
    const empty = !(f.config[field.key] ?? '').trim();
    if (empty && !field.optional && !(field.secret && editing))
      e[`config.${field.key}`] = t('alerts.form.fieldRequired', { field: channelFieldWords(f.type, field).label });
  }
  if (f.events.length === 0) e.events = t('alerts.form.chooseEvent');
  if (f.monitorIds !== null && f.monitorIds.length === 0) e.monitor_ids = t('alerts.form.chooseMonitor');
  return e;
}

export type Outcome<T = unknown> = { ok: true; data: T } | { ok: false; text: string; fields: Record<string, string> };

function failure(error: unknown, failed: string): { ok: false; text: string; fields: Record<string, string> } {
  const fields = (error as { errors?: Record<string, string> } | undefined)?.errors ?? {};
  return { ok: false, text: errorText(error, failed), fields };
}

function body(f: ChannelForm, editing: boolean) {
  return {
    name: f.name.trim(),
    config: configPayload(f, editing),
    events: f.events,
    monitor_ids: f.monitorIds,
    min_severity: f.minSeverity,
    enabled: f.enabled,
  };
}

export type ChannelWithSecret = S['AlertChannelWithSecret'];

export async function createChannel(f: ChannelForm, tenant: string | null): Promise<Outcome<ChannelWithSecret>> {
  const { data, error } = await api.POST('/api/v1/alert-channels', {
    body: { ...body(f, false), type: f.type, ...(tenant ? { company_id: tenant } : {}) },
  });
  if (!data) return failure(error, t('alerts.channel.createFailed'));
  $channelsAlert.set({ ok: true, text: t('alerts.channel.created') });
  await loadChannels(tenant);
  return { ok: true, data };
}

export async function updateChannel(id: string, f: ChannelForm, tenant: string | null): Promise<Outcome> {
  const { data, error } = await api.PUT('/api/v1/alert-channels/{id}', { params: { path: { id } }, body: body(f, true) });
  if (!data) return failure(error, t('alerts.channel.updateFailed'));
  $channelsAlert.set({ ok: true, text: t('alerts.channel.updated') });
  await loadChannels(tenant);
  return { ok: true, data };
}

/** Enable or disable (company admins never delete a channel). */
export async function setEnabled(c: Channel, enabled: boolean, tenant: string | null): Promise<void> {
  const { data, error } = await api.PUT('/api/v1/alert-channels/{id}', { params: { path: { id: c.id } }, body: { enabled } });
  if (!data) return $channelsAlert.set({ ok: false, text: errorText(error, t('alerts.channel.updateFailed')) });
  $channelsAlert.set({ ok: true, text: t(enabled ? 'alerts.channel.enabled' : 'alerts.channel.disabled', { name: c.name }) });
  await loadChannels(tenant);
}

export async function deleteChannel(c: Channel, tenant: string | null): Promise<void> {
  const { error, response } = await api.DELETE('/api/v1/alert-channels/{id}', { params: { path: { id: c.id } } });
  if (response.status !== 204) return $channelsAlert.set({ ok: false, text: errorText(error, t('alerts.channel.deleteFailed')) });
  $channelsAlert.set({ ok: true, text: `"${c.name}" deleted.` });
  await loadChannels(tenant);
}

export async function rotateSecret(c: Channel): Promise<Outcome<ChannelWithSecret>> {
  const { data, error } = await api.POST('/api/v1/alert-channels/{id}/rotate-secret', { params: { path: { id: c.id } } });
  return data ? { ok: true, data } : failure(error, t('alerts.channel.rotateFailed'));
}

/** What Send test shows: queued, then the delivery's state once the job has tried it. */
export type TestProgress = { channelId: string; state: DeliveryState | 'queued'; error?: string | null; code?: number | null } | null;
export const $testProgress = atom<TestProgress>(null);

const POLL_MS = 700;
const POLL_FOR_MS = 15_000;

/** Queues a test alert, then reads its receipt until it is delivered or failed (or 15 s pass). */
export async function sendTest(c: Channel, tenant: string | null, wait = (ms: number) => new Promise((r) => setTimeout(r, ms))) {
  const { data, error } = await api.POST('/api/v1/alert-channels/{id}/test', { params: { path: { id: c.id } } });
  if (!data) return $channelsAlert.set({ ok: false, text: errorText(error, t('alerts.channel.testFailed')) });
  $testProgress.set({ channelId: c.id, state: 'queued' });
  const until = Date.now() + POLL_FOR_MS;
  while (Date.now() < until) {
    await wait(POLL_MS);
    const list = await dataOrLog(
      () => api.GET('/api/v1/alert-deliveries', { params: { query: { ...tenantQuery(tenant), channel_id: c.id, limit: 20 } } }),
      'Failed to read the test delivery',
    );
    const d = list?.find((x) => x.id === data.delivery_id);
    if (!d) continue;
    const last = d.attempt_log.at(-1);
    $testProgress.set({ channelId: c.id, state: d.state, error: d.last_error, code: last?.status_code ?? null });
    if (d.state === 'delivered' || d.state === 'failed' || d.state === 'retrying') return;
  }
}

export async function retryDelivery(d: Delivery, tenant: string | null, filter: DeliveryFilter): Promise<void> {
  const { data, error } = await api.POST('/api/v1/alert-deliveries/{id}/retry', { params: { path: { id: d.id } } });
  if (!data) return $deliveriesAlert.set({ ok: false, text: errorText(error, t('alerts.deliveries.retryFailed')) });
  // English runs the event into the sentence in lower case; German keeps its nouns capitalised
  const event = consoleLocale() === 'en' ? eventLabel(d.event).toLowerCase() : eventLabel(d.event);
  $deliveriesAlert.set({ ok: true, text: t('alerts.deliveries.retrying', { event, channel: d.channel_name }) });
  await loadDeliveries(tenant, filter, true);
}
