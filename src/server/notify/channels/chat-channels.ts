// The channels for outside services, keyed by their `type`, for the channel registry to spread.
import type { Channel } from './channel.ts';
import { discord } from './discord.ts';
import { googleChat } from './google-chat.ts';
import { mattermost } from './mattermost.ts';
import { ntfy } from './ntfy.ts';
import { opsgenie } from './opsgenie.ts';
import { pagerduty } from './pagerduty.ts';
import { slack } from './slack.ts';
import { teams } from './teams.ts';
import { telegram } from './telegram.ts';
import { twilioSms } from './twilio-sms.ts';

export const CHAT_CHANNELS = {
  slack,
  teams,
  discord,
  'google-chat': googleChat,
  mattermost,
  pagerduty,
  opsgenie,
  telegram,
  ntfy,
  sms: twilioSms,
} as const satisfies Record<string, Channel>;
