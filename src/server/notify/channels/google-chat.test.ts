import { describe, expect, it } from 'vitest';
import { deliveredAlerts, sendAccepted, receiverForFile, itRefusesConfigs } from '../../../../tests/fixtures/receivers/channel-harness.ts';
import {
  GOOGLE_CHAT_KEY,
  GOOGLE_CHAT_SPACE,
  GOOGLE_CHAT_TOKEN,
  startGoogleChatReceiver,
} from '../../../../tests/fixtures/receivers/google-chat-receiver.ts';
import { envFor, groupedAlert, openedAlert, resolvedAlert, send } from '../../../../tests/fixtures/receivers/sample-alerts.ts';
import { googleChat } from './google-chat.ts';

const receiver = receiverForFile(startGoogleChatReceiver);

const config = () =>
  googleChat.parseConfig({
    url: `${receiver().origin}/v1/spaces/${GOOGLE_CHAT_SPACE}/messages?key=${GOOGLE_CHAT_KEY}&token=${GOOGLE_CHAT_TOKEN}`,
  });

describe('Google Chat channel', () => {
  it.each(deliveredAlerts())('Chat accepts the %s alert as a card with a text fallback', async (_what, alert) => {
    const request = googleChat.build(alert, config(), envFor());
    const answer = await sendAccepted(receiver(), request, 200);
    expect(JSON.parse(answer.body).name).toMatch(new RegExp(`^spaces/${GOOGLE_CHAT_SPACE}/messages/`));
    const body = JSON.parse(request.body);
    expect(body.text).toContain('(Acme & Sons ‹Ltd›)');
    expect(body.cardsV2[0].card.header.title).toBe(alert.title);
  });

  it('threads the opened and the resolved message of one incident together', async () => {
    const opened = googleChat.build(openedAlert(), config(), envFor());
    const resolved = googleChat.build(resolvedAlert(), config(), envFor());
    const threads = [JSON.parse((await send(opened)).body).thread.name, JSON.parse((await send(resolved)).body).thread.name];
    expect(threads[0]).toBe(`spaces/${GOOGLE_CHAT_SPACE}/threads/incident-inc-42`);
    expect(threads[1]).toBe(threads[0]);
    expect(new URL(opened.url).searchParams.get('messageReplyOption')).toBe('REPLY_MESSAGE_FALLBACK_TO_NEW_THREAD');
  });

  it("escapes names inside the card's HTML", () => {
    const widgets = JSON.parse(googleChat.build(groupedAlert(2), config(), envFor()).body).cardsV2[0].card.sections[0].widgets;
    expect(widgets[2].textParagraph.text).toBe(
      '<b>2 monitors</b><br>• <b>Service 1 &lt;api&gt; &amp; co</b> https://svc-1.acme.example.com/health<br>• <b>Service 2 &lt;api&gt; &amp; co</b> https://svc-2.acme.example.com/health',
    );
  });

  it('the fake refuses what Chat refuses: an empty message, markup Chat does not format', async () => {
    const request = googleChat.build(openedAlert(), config(), envFor());
    const empty = await send({ ...request, body: '{}' });
    expect(JSON.parse(empty.body)).toEqual({
      error: { code: 400, message: 'Message cannot be empty. Discarding empty message.', status: 'INVALID_ARGUMENT' },
    });
    const body = JSON.parse(request.body);
    body.cardsV2[0].card.sections[0].widgets[1].textParagraph.text = 'Website <prod>';
    expect((await send({ ...request, body: JSON.stringify(body) })).status).toBe(400);
  });

  itRefusesConfigs(googleChat.parseConfig, [
    [{}, 'url', 'Webhook URL is required.'],
    [{ url: 'javascript:alert(1)' }, 'url', 'Webhook URL must start with https:// or http://.'],
  ]);

  it('keeps the webhook URL (key and token) secret', () => {
    expect(googleChat.secretFields).toEqual(['url']);
  });
});
