// Twilio SMS settings: the account's SID and auth token (secret), the sender and the receiving number.
import type { ChannelForm } from './field.ts';

const E164_EXPECTED = 'a phone number in international format such as +14155550123';

export const smsForm: ChannelForm = {
  label: 'SMS (Twilio)',
  fields: [
    {
      key: 'account_sid',
      label: 'Account SID',
      input: 'text',
      placeholder: 'AC…',
      max: 34,
      pattern: /^AC[0-9a-f]{32}$/,
      expected: 'AC followed by 32 hexadecimal digits',
    },
    {
      key: 'auth_token',
      label: 'Auth token',
      input: 'text',
      secret: true,
      max: 32,
      pattern: /^[0-9a-f]{32}$/,
      expected: '32 hexadecimal digits',
    },
    {
      key: 'from',
      label: 'From',
      input: 'text',
      placeholder: '+15550100 or MG…',
      max: 34,
      pattern: /^(\+[1-9]\d{1,14}|MG[0-9a-f]{32})$/,
      expected: `${E164_EXPECTED}, or a Messaging Service SID (MG…)`,
    },
    { key: 'to', label: 'To', input: 'text', placeholder: '+15550123', max: 16, pattern: /^\+[1-9]\d{1,14}$/, expected: E164_EXPECTED },
  ],
};
