// Gotify's settings: the company's Gotify server and the token of an application on it (secret:
// it lets anyone post as that application).
import type { ChannelForm } from './field.ts';

export const gotifyForm: ChannelForm = {
  label: 'Gotify',
  fields: [
    { key: 'server_url', label: 'Server URL', input: 'url', placeholder: 'https://gotify.example.com' },
    {
      key: 'app_token',
      label: 'Application token',
      input: 'text',
      secret: true,
      hint: 'Apps → Create application, then its token',
      max: 64,
      pattern: /^[A-Za-z0-9._-]{8,64}$/,
      expected: 'the token of a Gotify application (letters, digits, . - and _)',
    },
  ],
};
