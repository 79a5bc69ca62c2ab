// PagerDuty's settings: the integration key of an Events API v2 integration.
import type { ChannelForm } from './field.ts';

export const pagerdutyForm: ChannelForm = {
  label: 'PagerDuty',
  fields: [
    {
      key: 'routing_key',
      label: 'Integration key',
      input: 'text',
      secret: true,
      hint: 'Events API v2, 32 characters',
      max: 32,
      pattern: /^[A-Za-z0-9]{32}$/,
      expected: 'the 32-character integration key of an Events API v2 integration',
    },
  ],
};
