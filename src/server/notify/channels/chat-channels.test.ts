import { describe, expect, it } from 'vitest';
import { DISCORD_HOOK_PATH } from '../../../../tests/fixtures/receivers/discord-receiver.ts';
import { configErrorOf, envFor, openedAlert } from '../../../../tests/fixtures/receivers/sample-alerts.ts';
import { parseConfig } from '../../config.ts';
import { tempDir } from '../../../../tests/support/test-db.ts';
import { channelEnv } from '../channel-env.ts';
import { CHANNEL_EVENTS } from '../outbox/alert-event.ts';
import type { AlertEventType } from './channel.ts';
import { CHAT_CHANNELS } from './chat-channels.ts';

// Every event a channel may choose, and the Send test message.
const EVENTS: AlertEventType[] = [...CHANNEL_EVENTS, 'test'];

// A valid config per type, as a tenant would type it.
const CONFIGS: Record<keyof typeof CHAT_CHANNELS, unknown> = {
  slack: { url: 'https://hooks.slack.com/services/T1/B2/abc' },
  teams: { url: 'https://prod-01.westus.logic.azure.com/workflows/x/triggers/manual/paths/invoke?sig=y' },
  discord: { url: `https://discord.com${DISCORD_HOOK_PATH}` },
  'google-chat': { url: 'https://chat.googleapis.com/v1/spaces/A/messages?key=k&token=t' },
  mattermost: { url: 'https://chat.example.com/hooks/xq7k3bn1c3ftmyyz9b8s7ncwhe' },
  pagerduty: { routing_key: 'R0ut1ngK3yR0ut1ngK3yR0ut1ngK3y01' },
  opsgenie: { api_key: 'eb243592-faa2-4ba2-a551-1afdf565c889' },
  telegram: { bot_token: '123456789:AAEhBOweik6ad9r_QXMENQjcrGbqCr4K-bs', chat_id: '@alerts_channel' },
  ntfy: { topic: 'acme-alerts' },
  sms: { account_sid: `AC${'a'.repeat(32)}`, auth_token: 'b'.repeat(32), from: '+14155550100', to: '+14155550101' },
};

describe('chat and paging channels', () => {
  it('registers every channel under its own type', () => {
    for (const [key, channel] of Object.entries(CHAT_CHANNELS)) expect(channel.type).toBe(key);
  });

  it.each(Object.keys(CHAT_CHANNELS))('%s builds a JSON or form POST for every event', (type) => {
    const channel = CHAT_CHANNELS[type as keyof typeof CHAT_CHANNELS];
    const config = channel.parseConfig(CONFIGS[type as keyof typeof CHAT_CHANNELS]);
    for (const event of EVENTS) {
      const request = channel.build(openedAlert({ event }), config as never, envFor());
      expect(request.method).toBe('POST');
      expect(new URL(request.url).protocol).toBe('https:');
      expect(request.headers['content-type']).toMatch(/^application\/(json|x-www-form-urlencoded)/);
      expect(request.body.length).toBeGreaterThan(0);
    }
  });

  it.each(Object.keys(CHAT_CHANNELS))('%s refuses settings that are not an object', (type) => {
    expect(configErrorOf(() => CHAT_CHANNELS[type as keyof typeof CHAT_CHANNELS].parseConfig(null))).toEqual({
      field: 'config',
      message: 'The settings must be an object.',
    });
  });

  it('gives the channels the API hosts of the configuration', () => {
    const config = parseConfig({ DATA_DIR: tempDir(), PRODUCT_NAME: 'Uptime HQ', TWILIO_API_URL: 'http://127.0.0.1:9999' });
    expect(channelEnv(config)).toEqual({
      productName: 'Uptime HQ',
      apiBase: {
        pagerduty: 'https://events.pagerduty.com',
        opsgenie: 'https://api.opsgenie.com',
        telegram: 'https://api.telegram.org',
        twilio: 'http://127.0.0.1:9999',
        pushover: 'https://api.pushover.net',
        splunkOncall: 'https://alert.victorops.com',
        zenduty: 'https://www.zenduty.com',
        linear: 'https://api.linear.app/graphql',
      },
    });
  });
});
