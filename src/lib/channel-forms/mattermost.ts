// Mattermost's settings: an incoming webhook URL (the secret) and the channel to post in, when the
// hook allows overriding its own.
import { webhookUrlField, type ChannelForm } from './field.ts';

export const mattermostForm: ChannelForm = {
  label: 'Mattermost',
  fields: [
    webhookUrlField('A Mattermost incoming webhook'),
    {
      key: 'channel',
      label: 'Channel',
      input: 'text',
      optional: true,
      placeholder: 'town-square',
      max: 64,
      pattern: /^[a-z0-9_.-]+$/,
      expected: 'a channel name such as town-square',
    },
  ],
};
