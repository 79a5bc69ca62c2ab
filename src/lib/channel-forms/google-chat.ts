// Google Chat's settings: an incoming webhook URL, which is the secret.
import { webhookUrlField, type ChannelForm } from './field.ts';

export const googleChatForm: ChannelForm = { label: 'Google Chat', fields: [webhookUrlField('A Google Chat incoming webhook')] };
