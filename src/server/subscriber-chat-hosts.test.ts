import { describe, expect, it } from 'vitest';
import { chatHostListsOf, DEFAULT_CHAT_HOSTS, onChatHosts } from './subscriber-chat-hosts.ts';

describe('chat subscribers’ webhook hosts', () => {
  it('take https on the named hosts and suffixes, and plain http only for an exactly listed origin', () => {
    const on = (url: string, entries: readonly string[]) => onChatHosts(new URL(url), entries);
    expect(on('https://hooks.slack.com/services/T/B/X', DEFAULT_CHAT_HOSTS.slack)).toBe(true);
    expect(on('http://hooks.slack.com/services/T/B/X', DEFAULT_CHAT_HOSTS.slack)).toBe(false);
    expect(on('https://hooks.slack.com:8443/services/T/B/X', DEFAULT_CHAT_HOSTS.slack)).toBe(false);
    expect(on('https://hooks.slack.com.evil.example/services/T/B/X', DEFAULT_CHAT_HOSTS.slack)).toBe(false);
    expect(on('https://prod-12.westeurope.logic.azure.com/workflows/x', DEFAULT_CHAT_HOSTS.teams)).toBe(true);
    expect(on('https://logic.azure.com.evil.example/workflows/x', DEFAULT_CHAT_HOSTS.teams)).toBe(false);
    expect(on('https://evillogic.azure.com/x', DEFAULT_CHAT_HOSTS.teams)).toBe(false);
    expect(on('http://127.0.0.1:4567/services/T/B/X', ['http://127.0.0.1:4567'])).toBe(true);
    expect(on('http://127.0.0.1:4568/services/T/B/X', ['http://127.0.0.1:4567'])).toBe(false);
  });

  it('are read from SUBSCRIBER_*_HOSTS, and a malformed entry stops the start', () => {
    const lists = chatHostListsOf({ SUBSCRIBER_DISCORD_HOSTS: 'discord.com, http://127.0.0.1:9/' });
    expect(lists.discord).toEqual(['discord.com', 'http://127.0.0.1:9']);
    expect(lists.slack).toEqual(DEFAULT_CHAT_HOSTS.slack);
    expect(() => chatHostListsOf({ SUBSCRIBER_SLACK_HOSTS: 'https://hooks.slack.com/services' })).toThrow(/SUBSCRIBER_SLACK_HOSTS/);
  });
});
