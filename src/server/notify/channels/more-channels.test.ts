// Every event any of the eight channels may be asked to carry (each event a channel can choose,
// maintenance included, and Send test) is accepted by that service's loopback fake.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GOTIFY_TOKEN, startGotifyReceiver } from '../../../../tests/fixtures/receivers/gotify-receiver.ts';
import { MATRIX_ROOM, MATRIX_TOKEN, startMatrixReceiver } from '../../../../tests/fixtures/receivers/matrix-receiver.ts';
import { PUSHOVER_TOKEN, PUSHOVER_USER, startPushoverReceiver } from '../../../../tests/fixtures/receivers/pushover-receiver.ts';
import type { Receiver } from '../../../../tests/fixtures/receivers/receiver-server.ts';
import { ROCKET_CHAT_HOOK_PATH, startRocketChatReceiver } from '../../../../tests/fixtures/receivers/rocket-chat-receiver.ts';
import { envFor, maintenanceAlert, openedAlert, send } from '../../../../tests/fixtures/receivers/sample-alerts.ts';
import { SIGNAL_NUMBER, startSignalReceiver } from '../../../../tests/fixtures/receivers/signal-receiver.ts';
import {
  SPLUNK_API_KEY,
  SPLUNK_ROUTING_KEY,
  startSplunkOncallReceiver,
} from '../../../../tests/fixtures/receivers/splunk-oncall-receiver.ts';
import { startZendutyReceiver, ZENDUTY_KEY } from '../../../../tests/fixtures/receivers/zenduty-receiver.ts';
import { startZulipReceiver, ZULIP_BOT, ZULIP_KEY, ZULIP_STREAM } from '../../../../tests/fixtures/receivers/zulip-receiver.ts';
import { CHANNEL_EVENTS } from '../outbox/alert-event.ts';
import type { Alert, AlertEventType } from './channel.ts';
import { MORE_CHANNELS } from './more-channels.ts';

type MoreType = keyof typeof MORE_CHANNELS;

const FAKES: Record<MoreType, { start: () => Promise<Receiver>; config: (origin: string) => Record<string, unknown> }> = {
  pushover: { start: startPushoverReceiver, config: () => ({ api_token: PUSHOVER_TOKEN, user_key: PUSHOVER_USER }) },
  gotify: { start: () => startGotifyReceiver(), config: (o) => ({ server_url: o, app_token: GOTIFY_TOKEN }) },
  matrix: { start: startMatrixReceiver, config: (o) => ({ homeserver_url: o, access_token: MATRIX_TOKEN, room_id: MATRIX_ROOM }) },
  signal: { start: startSignalReceiver, config: (o) => ({ server_url: o, number: SIGNAL_NUMBER, recipients: ['+4917012345678'] }) },
  zulip: { start: startZulipReceiver, config: (o) => ({ site_url: o, bot_email: ZULIP_BOT, api_key: ZULIP_KEY, stream: ZULIP_STREAM }) },
  'rocket-chat': { start: startRocketChatReceiver, config: (o) => ({ url: `${o}${ROCKET_CHAT_HOOK_PATH}` }) },
  'splunk-oncall': { start: startSplunkOncallReceiver, config: () => ({ api_key: SPLUNK_API_KEY, routing_key: SPLUNK_ROUTING_KEY }) },
  zenduty: { start: startZendutyReceiver, config: () => ({ integration_key: ZENDUTY_KEY }) },
};

const EVENTS: AlertEventType[] = [...CHANNEL_EVENTS, 'test'];

function alertFor(event: AlertEventType, i: number): Alert {
  const deliveryId = `msg_every_${i}`;
  if (event === 'maintenance.started' || event === 'maintenance.ended') return maintenanceAlert(event, { deliveryId });
  return openedAlert({ event, deliveryId });
}

describe.each(Object.keys(MORE_CHANNELS) as MoreType[])('the %s channel', (type) => {
  let fake: Receiver;
  beforeAll(async () => {
    fake = await FAKES[type].start();
  });
  afterAll(() => fake?.close());

  it('sends every event a channel may take, and Send test, in a form its service accepts', async () => {
    const channel = MORE_CHANNELS[type];
    const config = channel.parseConfig(FAKES[type].config(fake.origin));
    const env = envFor({ pushover: fake.origin, splunkOncall: fake.origin, zenduty: fake.origin });
    for (const [i, event] of EVENTS.entries()) {
      const answer = await send(channel.build(alertFor(event, i), config as never, env));
      expect(answer.status, `${event}: ${fake.refusals().join('; ')}`).toBeLessThan(300);
    }
    expect(fake.accepted()).toHaveLength(EVENTS.length);
  });

  it('refuses settings that are not an object, naming them', () => {
    expect(() => MORE_CHANNELS[type].parseConfig(null)).toThrow('The settings must be an object.');
  });
});
