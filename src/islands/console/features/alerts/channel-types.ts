// The channel types the server sends through and the config fields each takes: declared once in
// src/lib/channel-forms/ (the server validates with the same declarations and names the field it
// refuses). Secret fields are never shown back: they are password inputs, and on edit an empty one
// keeps the stored value.
import type { components } from '../../../../api/schema.d.ts';
import { CHANNEL_FORMS, type ChannelForm } from '../../../../lib/channel-forms/index.ts';

export type ChannelType = components['schemas']['ChannelType'];
export type AlertEvent = components['schemas']['AlertEvent'];
export type Severity = components['schemas']['AlertSeverity'];

/** Every documented type's form: a type of the OpenAPI document without one is a type error. */
export const CHANNEL_TYPES: Record<ChannelType, ChannelForm> = CHANNEL_FORMS;

export const TYPE_NAMES = Object.keys(CHANNEL_TYPES) as ChannelType[];

export const EVENTS: { value: AlertEvent; label: string }[] = [
  { value: 'incident.opened', label: 'Incident opened' },
  { value: 'incident.resolved', label: 'Incident resolved' },
  { value: 'incident.degraded', label: 'Degraded' },
  { value: 'incident.acknowledged', label: 'Acknowledged' },
  { value: 'incident.escalated', label: 'Escalated' },
  { value: 'ssl_warning', label: 'SSL warning' },
  { value: 'dns_warning', label: 'DNS warning' },
  { value: 'security_report', label: 'Security report' },
  { value: 'maintenance.started', label: 'Maintenance started' },
  { value: 'maintenance.ended', label: 'Maintenance ended' },
];

export const SEVERITIES: Severity[] = ['info', 'low', 'medium', 'high', 'critical'];

/** An event as people read it (`test` is Send test's). */
export const eventLabel = (e: string) => (e === 'test' ? 'Test' : (EVENTS.find((x) => x.value === e)?.label ?? e));
