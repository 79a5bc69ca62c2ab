// Pushover's settings: the application's API token and the user or group key to notify (both
// secret: either lets anyone send as, or to, the company), and optionally which of the user's
// devices get it.
import type { ChannelForm } from './field.ts';

const KEY = /^[A-Za-z0-9]{30}$/;

export const pushoverForm: ChannelForm = {
  label: 'Pushover',
  fields: [
    {
      key: 'api_token',
      label: 'Application API token',
      input: 'text',
      secret: true,
      hint: 'The API token of an application registered at pushover.net',
      max: 30,
      pattern: KEY,
      expected: 'the 30 letters and digits of a Pushover application token',
    },
    {
      key: 'user_key',
      label: 'User or group key',
      input: 'text',
      secret: true,
      max: 30,
      pattern: KEY,
      expected: 'the 30 letters and digits of a Pushover user or group key',
    },
    {
      key: 'device',
      label: 'Devices',
      input: 'text',
      optional: true,
      placeholder: 'iphone,desk',
      hint: 'Only these devices of the user, comma-separated; empty: all of them',
      max: 200,
      pattern: /^[A-Za-z0-9_-]{1,25}(,[A-Za-z0-9_-]{1,25})*$/,
      expected: 'device names (letters, digits, - and _, at most 25 each) separated by commas',
    },
  ],
};
