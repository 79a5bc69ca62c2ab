// The push, chat and on-call channels added with on-call schedules (issue 30), keyed by their
// `type`, for the channel registry to spread.
import type { Channel } from './channel.ts';
import { gotify } from './gotify.ts';
import { matrix } from './matrix.ts';
import { pushover } from './pushover.ts';
import { rocketChat } from './rocket-chat.ts';
import { signal } from './signal.ts';
import { splunkOncall } from './splunk-oncall.ts';
import { zenduty } from './zenduty.ts';
import { zulip } from './zulip.ts';

export const MORE_CHANNELS = {
  pushover,
  gotify,
  matrix,
  signal,
  zulip,
  'rocket-chat': rocketChat,
  'splunk-oncall': splunkOncall,
  zenduty,
} as const satisfies Record<string, Channel>;
