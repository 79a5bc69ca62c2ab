// The webhook channel's settings: the receiver's URL (its signing secret is the server's, not a field).
import type { ChannelForm } from './field.ts';

export const webhookForm: ChannelForm = {
  label: 'Webhook',
  fields: [
    {
      key: 'url',
      label: 'Webhook URL',
      input: 'url',
      placeholder: 'https://…',
      hint: 'Receives a signed JSON POST (Standard Webhooks)',
    },
  ],
};
