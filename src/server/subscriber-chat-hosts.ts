// Where a status-page visitor's chat webhook may point: each service's own hosts, so the product
// never posts a confirmation to an arbitrary URL on a stranger's behalf. Read once at boot from
// SUBSCRIBER_SLACK_HOSTS, SUBSCRIBER_TEAMS_HOSTS and SUBSCRIBER_DISCORD_HOSTS (comma lists).
// An entry is a host name (`hooks.slack.com`, https on its default port), a suffix
// (`*.logic.azure.com`), or a whole origin (`http://127.0.0.1:4567`): tests and development
// point a service at a loopback fake that way without opening plain http for real hosts.
import { type Env, fail } from './env-values.ts';

export const CHAT_SUBSCRIBER_KINDS = ['slack', 'teams', 'discord'] as const;
export type ChatSubscriberKind = (typeof CHAT_SUBSCRIBER_KINDS)[number];
export type ChatHostLists = Record<ChatSubscriberKind, readonly string[]>;

// Slack's incoming webhooks (api.slack.com/messaging/webhooks); Teams' retired connectors
// (*.webhook.office.com) and the Workflows URLs that replace them (Logic Apps and Power
// Platform hosts); Discord's webhook hosts, including its test builds.
export const DEFAULT_CHAT_HOSTS: ChatHostLists = {
  slack: ['hooks.slack.com'],
  teams: ['*.webhook.office.com', '*.logic.azure.com', '*.api.powerplatform.com'],
  discord: ['discord.com', 'discordapp.com', 'ptb.discord.com', 'canary.discord.com'],
};

const HOST = /^(\*\.)?([a-z0-9-]+\.)+[a-z0-9-]+$/;

function entryValid(entry: string): boolean {
  if (HOST.test(entry)) return true;
  try {
    const u = new URL(entry);
    return /^https?:$/.test(u.protocol) && u.origin === entry;
  } catch {
    return false;
  }
}

export function chatHostListsOf(env: Env): ChatHostLists {
  const raws: Record<ChatSubscriberKind, [string, string | undefined]> = {
    slack: ['SUBSCRIBER_SLACK_HOSTS', env.SUBSCRIBER_SLACK_HOSTS],
    teams: ['SUBSCRIBER_TEAMS_HOSTS', env.SUBSCRIBER_TEAMS_HOSTS],
    discord: ['SUBSCRIBER_DISCORD_HOSTS', env.SUBSCRIBER_DISCORD_HOSTS],
  };
  const out = { ...DEFAULT_CHAT_HOSTS };
  for (const kind of CHAT_SUBSCRIBER_KINDS) {
    const [name, raw] = raws[kind];
    if (raw === undefined || raw.trim() === '') continue;
    const entries = raw
      .split(',')
      .map((e) => e.trim().toLowerCase().replace(/\/+$/, ''))
      .filter(Boolean);
    if (entries.some((e) => !entryValid(e)))
      fail(name, 'a comma-separated list of host names, *.suffixes or origins (http://127.0.0.1:4567)', raw);
    out[kind] = entries;
  }
  return out;
}

/** Whether `url` is on one of `entries`: a named host over https, or exactly a listed origin. */
export function onChatHosts(url: URL, entries: readonly string[]): boolean {
  const host = url.hostname.toLowerCase();
  return entries.some((e) => {
    if (e.includes('://')) return url.origin === e;
    if (url.protocol !== 'https:' || url.port !== '') return false;
    return e.startsWith('*.') ? host.endsWith(e.slice(1)) && host.length > e.length - 1 : host === e;
  });
}
