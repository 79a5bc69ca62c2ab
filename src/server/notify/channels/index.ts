// Every alert channel type, in one table like the monitor kinds: a new channel is one module in
// this folder and its line here (plus its value in openapi/schemas/alerts.yaml ChannelType, and
// its form in src/lib/channel-forms/). The types are the OpenAPI document's: a documented type
// without a module is a type error; tests/api/alert-channel-types.test.ts catches the reverse.
import type { components } from '../../../api/schema.d.ts';
import type { Channel } from './channel.ts';
import { CHAT_CHANNELS } from './chat-channels.ts';
import { email } from './email.ts';
import { MORE_CHANNELS } from './more-channels.ts';
import { webhook } from './webhook.ts';
import { customHttp } from './custom-http.ts';
import { jira } from './jira.ts';
import { linear } from './linear.ts';

export const CHANNELS = {
  webhook,
  email,
  // Chat and paging channels: slack, teams, discord, google-chat, mattermost, pagerduty,
  // opsgenie, telegram, ntfy, sms
  ...CHAT_CHANNELS,
  // pushover, gotify, matrix, signal, zulip, rocket-chat, splunk-oncall, zenduty
  ...MORE_CHANNELS,
  'custom-http': customHttp,
  // Issue trackers: an incident opens an issue, later events comment on it
  jira,
  linear,
} satisfies Record<ChannelType, Channel>;

export type ChannelType = components['schemas']['ChannelType'];

export const CHANNEL_TYPES = Object.keys(CHANNELS) as ChannelType[];

export function channelOf(type: string): Channel | null {
  return Object.hasOwn(CHANNELS, type) ? (CHANNELS as Record<string, Channel>)[type] : null;
}
