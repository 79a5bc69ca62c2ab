// Discord's settings: a channel webhook URL, which is the secret.
import { webhookUrlField, type ChannelForm } from './field.ts';

export const discordForm: ChannelForm = { label: 'Discord', fields: [webhookUrlField('A Discord channel webhook')] };
