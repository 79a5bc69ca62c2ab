// The channel types the server sends through and the config fields each takes (mirrors
// src/server/notify/channels/*.ts parseConfig; the server checks every value and names the field
// it refuses). Secret fields are never shown back: they are password inputs, and on edit an
// empty one keeps the stored value.
import type { components } from '../../../../api/schema.d.ts';

export type ChannelType = components['schemas']['ChannelType'];
export type AlertEvent = components['schemas']['AlertEvent'];
export type Severity = components['schemas']['AlertSeverity'];

export interface ConfigField {
  key: string;
  label: string;
  secret?: boolean;
  optional?: boolean;
  /** e-mail's `to`: one address per line, sent as a list */
  list?: boolean;
  placeholder?: string;
  hint?: string;
}

const url = (hint: string, secret = true): ConfigField => ({ key: 'url', label: 'Webhook URL', secret, placeholder: 'https://…', hint });

export const CHANNEL_TYPES: Record<ChannelType, { label: string; fields: ConfigField[] }> = {
  webhook: { label: 'Webhook', fields: [url('Receives a signed JSON POST (Standard Webhooks)', false)] },
  email: {
    label: 'E-mail',
    fields: [{ key: 'to', label: 'Recipients', list: true, placeholder: 'ops@example.com', hint: 'One address per line, at most 20' }],
  },
  slack: { label: 'Slack', fields: [url('A Slack incoming webhook')] },
  teams: { label: 'Microsoft Teams', fields: [url('A Workflows "When a Teams webhook request is received" URL')] },
  discord: { label: 'Discord', fields: [url('A Discord channel webhook')] },
  'google-chat': { label: 'Google Chat', fields: [url('A Google Chat incoming webhook')] },
  mattermost: {
    label: 'Mattermost',
    fields: [url('A Mattermost incoming webhook'), { key: 'channel', label: 'Channel', optional: true, placeholder: 'town-square' }],
  },
  pagerduty: {
    label: 'PagerDuty',
    fields: [{ key: 'routing_key', label: 'Integration key', secret: true, hint: 'Events API v2, 32 characters' }],
  },
  opsgenie: { label: 'Opsgenie', fields: [{ key: 'api_key', label: 'API key', secret: true, hint: 'The key of an API integration' }] },
  telegram: {
    label: 'Telegram',
    fields: [
      { key: 'bot_token', label: 'Bot token', secret: true, hint: 'From @BotFather' },
      { key: 'chat_id', label: 'Chat ID', placeholder: '-1001234567890 or @mychannel' },
    ],
  },
  ntfy: {
    label: 'ntfy',
    fields: [
      { key: 'server_url', label: 'Server URL', optional: true, placeholder: 'https://ntfy.sh' },
      { key: 'topic', label: 'Topic', secret: true },
      { key: 'access_token', label: 'Access token', secret: true, optional: true, placeholder: 'tk_…' },
    ],
  },
  sms: {
    label: 'SMS (Twilio)',
    fields: [
      { key: 'account_sid', label: 'Account SID', placeholder: 'AC…' },
      { key: 'auth_token', label: 'Auth token', secret: true },
      { key: 'from', label: 'From', placeholder: '+15550100 or MG…' },
      { key: 'to', label: 'To', placeholder: '+15550123' },
    ],
  },
};

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
