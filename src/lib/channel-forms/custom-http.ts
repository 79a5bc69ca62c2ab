// The custom HTTP channel's settings: method, URL, headers and body are templates the admin writes
// with the alert's fields, `{{title}}`, `{{monitor.name}}`, … (Uptime Kuma's and Gatus's custom
// alerting). The variables are listed here once: the server refuses any other name, the console
// and docs/features/alerts.md show the same list.
import type { ChannelForm } from './field.ts';

/** Every variable a template may use, with what it holds; an absent value (no monitor) is empty. */
export const TEMPLATE_VARIABLES: ReadonlyArray<{ name: string; holds: string }> = [
  { name: 'title', holds: 'one line, e.g. "Website is down"' },
  { name: 'message', holds: 'a few sentences built by the product' },
  { name: 'severity', holds: 'critical, high, medium, low or info' },
  { name: 'event', holds: 'incident.opened, incident.resolved, … or test' },
  { name: 'event_label', holds: 'the event as people read it, e.g. "Incident opened"' },
  { name: 'occurred_at', holds: 'when it happened, ISO 8601 in UTC' },
  { name: 'delivery_id', holds: 'the same on every retry of one delivery (for de-duplication)' },
  { name: 'company.name', holds: 'your company name' },
  { name: 'company.subdomain', holds: 'your status page subdomain' },
  { name: 'monitor.id', holds: 'the (first) monitor concerned' },
  { name: 'monitor.name', holds: 'its name' },
  { name: 'monitor.target', holds: 'its target (URL, host:port, …)' },
  { name: 'monitors', holds: 'the names of every monitor concerned, comma-separated' },
  { name: 'monitor_count', holds: 'how many monitors are concerned (a number)' },
  { name: 'incident.id', holds: 'the incident concerned' },
  { name: 'incident.title', holds: "the incident's title" },
  { name: 'incident.status', holds: 'investigating, identified, monitoring or resolved' },
  { name: 'incident.impact', holds: 'none, minor, major or critical' },
  { name: 'maintenance.id', holds: 'the maintenance window (maintenance events)' },
  { name: 'maintenance.title', holds: "the window's title" },
  { name: 'maintenance.starts_at', holds: 'when the occurrence starts, ISO 8601' },
  { name: 'maintenance.ends_at', holds: 'when it ends, ISO 8601' },
  { name: 'console_url', holds: 'the console page of the incident (or the dashboard)' },
  { name: 'status_page_url', holds: 'your public status page' },
  { name: 'acknowledge_url', holds: 'a signed one-time acknowledge link, when the event can be acknowledged' },
];

export const CUSTOM_HTTP_METHODS = ['POST', 'PUT', 'PATCH', 'GET'] as const;

export const customHttpForm: ChannelForm = {
  label: 'Custom HTTP',
  fields: [
    {
      key: 'method',
      label: 'Method',
      input: 'text',
      default: 'POST',
      optional: true,
      hint: 'POST, PUT, PATCH or GET',
      max: 5,
      pattern: /^(POST|PUT|PATCH|GET)$/,
      expected: 'POST, PUT, PATCH or GET',
    },
    {
      key: 'url',
      label: 'URL',
      input: 'text',
      max: 2048,
      placeholder: 'https://example.com/alerts?monitor={{monitor.name}}',
      hint: 'May use {{variables}} after the host; values are URL-encoded',
    },
    {
      key: 'headers',
      label: 'Headers',
      input: 'multiline',
      optional: true,
      placeholder: 'Content-Type: application/json',
      hint: 'One "Name: value" a line; values may use {{variables}}',
    },
    {
      key: 'secret_headers',
      label: 'Secret headers',
      input: 'multiline',
      optional: true,
      secret: true,
      placeholder: 'Authorization: Bearer …',
      hint: 'Like headers, never shown back (tokens, keys)',
    },
    {
      key: 'body',
      label: 'Body',
      input: 'multiline',
      optional: true,
      placeholder: '{"text": "{{title}}: {{message}}"}',
      hint: `JSON unless a Content-Type header says otherwise (values are then JSON-escaped); empty for GET. Variables: ${TEMPLATE_VARIABLES.map((v) => `{{${v.name}}}`).join(' ')}`,
    },
  ],
};
