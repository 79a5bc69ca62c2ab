// Every alert channel type, in one table like the monitor kinds: a new channel is one module in
// this folder and its line here (plus its value in openapi/schemas/alerts.yaml ChannelType).
import type { Channel } from './channel.ts';
import { email } from './email.ts';
import { webhook } from './webhook.ts';

export const CHANNELS = {
  webhook,
  email,
  // slack, teams, discord, google_chat, mattermost: chat incoming webhooks (their modules' lines go here)
  // pagerduty, opsgenie, telegram, ntfy, twilio_sms: paging and messaging APIs (their lines go here)
} satisfies Record<string, Channel>;

export type ChannelType = keyof typeof CHANNELS;

export const CHANNEL_TYPES = Object.keys(CHANNELS) as ChannelType[];

export function channelOf(type: string): Channel | null {
  return Object.hasOwn(CHANNELS, type) ? (CHANNELS as Record<string, Channel>)[type] : null;
}
