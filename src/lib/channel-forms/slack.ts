// Slack's settings: an incoming webhook URL, which is the secret.
import { webhookUrlField, type ChannelForm } from './field.ts';

export const slackForm: ChannelForm = { label: 'Slack', fields: [webhookUrlField('A Slack incoming webhook')] };
