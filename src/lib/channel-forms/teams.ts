// Microsoft Teams' settings: a Workflows webhook URL, which is the secret.
import { webhookUrlField, type ChannelForm } from './field.ts';

export const teamsForm: ChannelForm = {
  label: 'Microsoft Teams',
  fields: [webhookUrlField('A Workflows "When a Teams webhook request is received" URL', 'Workflow webhook URL')],
};
