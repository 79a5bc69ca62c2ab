// Rocket.Chat's settings: an incoming webhook's URL, which holds its token (the secret).
import { webhookUrlField, type ChannelForm } from './field.ts';

export const rocketChatForm: ChannelForm = {
  label: 'Rocket.Chat',
  fields: [webhookUrlField('Administration → Integrations → New → Incoming, then its Webhook URL')],
};
