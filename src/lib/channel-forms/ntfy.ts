// ntfy's settings: the server (ntfy.sh unless given), the topic (secret: on a public server its
// name is all that keeps the feed private) and an optional access token.
import type { ChannelForm } from './field.ts';

export const ntfyForm: ChannelForm = {
  label: 'ntfy',
  fields: [
    { key: 'server_url', label: 'Server URL', input: 'url', optional: true, default: 'https://ntfy.sh', placeholder: 'https://ntfy.sh' },
    {
      key: 'topic',
      label: 'Topic',
      input: 'text',
      secret: true,
      max: 64,
      pattern: /^[-_A-Za-z0-9]+$/,
      expected: 'letters, digits, - and _ only',
    },
    {
      key: 'access_token',
      label: 'Access token',
      input: 'text',
      secret: true,
      optional: true,
      placeholder: 'tk_…',
      max: 64,
      pattern: /^tk_[A-Za-z0-9]{29}$/,
      expected: 'an ntfy access token (tk_ and 29 letters or digits)',
    },
  ],
};
