// The e-mail channel's settings: its recipients, one address a line in the form, a list in the API.
import type { ChannelForm } from './field.ts';

export const emailForm: ChannelForm = {
  label: 'E-mail',
  fields: [{ key: 'to', label: 'Recipients', input: 'lines', placeholder: 'ops@example.com', hint: 'One address per line, at most 20' }],
};
