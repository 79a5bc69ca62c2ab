// Opsgenie's settings: the key of an API integration.
import type { ChannelForm } from './field.ts';

export const opsgenieForm: ChannelForm = {
  label: 'Opsgenie',
  fields: [
    {
      key: 'api_key',
      label: 'API key',
      input: 'text',
      secret: true,
      hint: 'The key of an API integration',
      max: 36,
      pattern: /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i,
      expected: 'the key of an Opsgenie API integration (xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx)',
    },
  ],
};
