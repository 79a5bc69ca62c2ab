// Signal's settings: a signal-cli REST API server the company runs, the number registered on it
// that sends, and who receives: phone numbers or group IDs, one a line in the form, a list in
// the API.
import type { ChannelForm } from './field.ts';

export const signalForm: ChannelForm = {
  label: 'Signal',
  fields: [
    {
      key: 'server_url',
      label: 'signal-cli REST API URL',
      named: 'Server URL',
      input: 'url',
      placeholder: 'http://signal-api.internal:8080',
    },
    {
      key: 'number',
      label: 'Sender number',
      input: 'text',
      placeholder: '+4915112345678',
      hint: 'The number registered or linked on that server',
      max: 16,
      pattern: /^\+[1-9]\d{6,14}$/,
      expected: 'a phone number in international format such as +4915112345678',
    },
    {
      key: 'recipients',
      label: 'Recipients',
      input: 'lines',
      placeholder: '+4917012345678',
      hint: 'Phone numbers (+…) or group IDs (group.…), one per line, at most 20',
    },
  ],
};
