// Zenduty's settings: the integration key of a Generic Integration on a service (secret: it opens
// incidents on that service).
import type { ChannelForm } from './field.ts';

export const zendutyForm: ChannelForm = {
  label: 'Zenduty',
  fields: [
    {
      key: 'integration_key',
      label: 'Integration key',
      input: 'text',
      secret: true,
      hint: 'Service → Integrations → Generic Integration: the key at the end of its webhook URL',
      max: 64,
      pattern: /^[A-Za-z0-9-]{8,64}$/,
      expected: 'the integration key of a Zenduty Generic Integration (letters, digits and -)',
    },
  ],
};
