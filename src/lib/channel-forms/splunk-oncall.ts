// Splunk On-Call's settings: the REST endpoint integration's API key (secret) and the routing key
// that picks the team.
import type { ChannelForm } from './field.ts';

export const splunkOncallForm: ChannelForm = {
  label: 'Splunk On-Call',
  fields: [
    {
      key: 'api_key',
      label: 'REST API key',
      input: 'text',
      secret: true,
      hint: 'Integrations → REST Generic: the key in its URL, after /alert/',
      max: 36,
      pattern: /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i,
      expected: 'the key of a Splunk On-Call REST endpoint (xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx)',
    },
    {
      key: 'routing_key',
      label: 'Routing key',
      input: 'text',
      placeholder: 'ops',
      hint: 'Settings → Routing Keys',
      max: 100,
      pattern: /^[A-Za-z0-9_.-]+$/,
      expected: 'a routing key (letters, digits, . - and _)',
    },
  ],
};
