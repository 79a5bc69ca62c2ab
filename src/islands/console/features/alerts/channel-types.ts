// The channel types the server sends through and the config fields each takes: declared once in
// src/lib/channel-forms/ (the server validates with the same declarations and names the field it
// refuses). Secret fields are never shown back: they are password inputs, and on edit an empty one
// keeps the stored value.
import type { components } from '../../../../api/schema.d.ts';
import { CHANNEL_FORMS, type ChannelForm } from '../../../../lib/channel-forms/index.ts';
import { type ConsoleKey, t } from '../../i18n.ts';

export type ChannelType = components['schemas']['ChannelType'];
export type AlertEvent = components['schemas']['AlertEvent'];
export type Severity = components['schemas']['AlertSeverity'];

/** Every documented type's form: a type of the OpenAPI document without one is a type error. */
export const CHANNEL_TYPES: Record<ChannelType, ChannelForm> = CHANNEL_FORMS;

export const TYPE_NAMES = Object.keys(CHANNEL_TYPES) as ChannelType[];

const EVENT_VALUES: AlertEvent[] = [
  'incident.opened',
  'incident.resolved',
  'incident.degraded',
  'incident.acknowledged',
  'incident.escalated',
  'ssl_warning',
  'dns_warning',
  'security_report',
  'maintenance.started',
  'maintenance.ended',
  'anomaly.opened',
  'anomaly.resolved',
];
/** Each event with its label (alerts.event.<value>), read when drawn so in the language shown then. */
export const EVENTS: { readonly value: AlertEvent; readonly label: string }[] = EVENT_VALUES.map((value) => ({
  value,
  get label() {
    return t(`alerts.event.${value}` as ConsoleKey);
  },
}));

export const SEVERITIES: Severity[] = ['info', 'low', 'medium', 'high', 'critical'];

/** An event as people read it (`test` is Send test's). */
export const eventLabel = (e: string) => (e === 'test' ? t('alerts.event.test') : (EVENTS.find((x) => x.value === e)?.label ?? e));
