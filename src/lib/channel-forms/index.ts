// Every channel type's form, in the order the console offers them; one file each in this folder.
// The console types this table against the OpenAPI document's ChannelType, so a documented type
// without its form here fails the typecheck.
import { discordForm } from './discord.ts';
import { emailForm } from './email.ts';
import type { ChannelForm } from './field.ts';
import { googleChatForm } from './google-chat.ts';
import { mattermostForm } from './mattermost.ts';
import { ntfyForm } from './ntfy.ts';
import { opsgenieForm } from './opsgenie.ts';
import { pagerdutyForm } from './pagerduty.ts';
import { slackForm } from './slack.ts';
import { smsForm } from './sms.ts';
import { teamsForm } from './teams.ts';
import { telegramForm } from './telegram.ts';
import { webhookForm } from './webhook.ts';
import { pushoverForm } from './pushover.ts';
import { gotifyForm } from './gotify.ts';
import { matrixForm } from './matrix.ts';
import { signalForm } from './signal.ts';
import { zulipForm } from './zulip.ts';
import { rocketChatForm } from './rocket-chat.ts';
import { splunkOncallForm } from './splunk-oncall.ts';
import { zendutyForm } from './zenduty.ts';
import { customHttpForm } from './custom-http.ts';
import { jiraForm } from './jira.ts';
import { linearForm } from './linear.ts';

export const CHANNEL_FORMS = {
  webhook: webhookForm,
  email: emailForm,
  slack: slackForm,
  teams: teamsForm,
  discord: discordForm,
  'google-chat': googleChatForm,
  mattermost: mattermostForm,
  pagerduty: pagerdutyForm,
  opsgenie: opsgenieForm,
  telegram: telegramForm,
  ntfy: ntfyForm,
  sms: smsForm,
  pushover: pushoverForm,
  gotify: gotifyForm,
  matrix: matrixForm,
  signal: signalForm,
  zulip: zulipForm,
  'rocket-chat': rocketChatForm,
  'splunk-oncall': splunkOncallForm,
  zenduty: zendutyForm,
  'custom-http': customHttpForm,
  jira: jiraForm,
  linear: linearForm,
} satisfies Record<string, ChannelForm>;

export type { ChannelField, ChannelForm } from './field.ts';
