// Zulip's settings: the organisation's URL, a bot's e-mail and API key (secret), and the stream
// and topic it posts to (an incident's own topic when none is given).
import type { ChannelForm } from './field.ts';

export const zulipForm: ChannelForm = {
  label: 'Zulip',
  fields: [
    { key: 'site_url', label: 'Zulip URL', input: 'url', placeholder: 'https://acme.zulipchat.com' },
    {
      key: 'bot_email',
      label: 'Bot e-mail',
      input: 'text',
      placeholder: 'alerts-bot@acme.zulipchat.com',
      hint: 'Settings → Personal → Bots: an incoming webhook or generic bot',
      max: 254,
      pattern: /^[^\s@:]+@[^\s@:]+$/,
      expected: "the bot's e-mail address such as alerts-bot@acme.zulipchat.com",
    },
    {
      key: 'api_key',
      label: 'API key',
      input: 'text',
      secret: true,
      max: 64,
      pattern: /^[A-Za-z0-9]{16,64}$/,
      expected: "the bot's API key (letters and digits)",
    },
    {
      key: 'stream',
      label: 'Stream',
      input: 'text',
      placeholder: 'alerts',
      max: 60,
      pattern: /^[^\s*`][^*`]*$/,
      expected: 'a stream name',
    },
    {
      key: 'topic',
      label: 'Topic',
      input: 'text',
      optional: true,
      hint: 'Empty: each incident in a topic of its own, named by the incident',
      max: 60,
    },
  ],
};
