import { describe, expect, it } from 'vitest';
import { deliveredAlerts, sendAccepted, receiverForFile, itRefusesConfigs } from '../../../../tests/fixtures/receivers/channel-harness.ts';
import { envFor, groupedAlert, openedAlert, send } from '../../../../tests/fixtures/receivers/sample-alerts.ts';
import { startTelegramReceiver, TELEGRAM_BOT_TOKEN, TELEGRAM_CHAT_ID } from '../../../../tests/fixtures/receivers/telegram-receiver.ts';
import { telegram } from './telegram.ts';

const receiver = receiverForFile(startTelegramReceiver);

const config = () => telegram.parseConfig({ bot_token: TELEGRAM_BOT_TOKEN, chat_id: TELEGRAM_CHAT_ID });
const env = () => envFor({ telegram: receiver().origin });

describe('Telegram channel', () => {
  it.each(deliveredAlerts())('the Bot API accepts the %s alert as HTML', async (_what, alert) => {
    const request = telegram.build(alert, config(), env());
    expect(request.url).toBe(`${receiver().origin}/bot${TELEGRAM_BOT_TOKEN}/sendMessage`);
    const answer = await sendAccepted(receiver(), request, 200);
    expect(JSON.parse(answer.body)).toMatchObject({ ok: true, result: { chat: { id: Number(TELEGRAM_CHAT_ID) } } });
  });

  it('escapes HTML, so a monitor named "<b>" shows as text and the message is not refused', async () => {
    const alert = openedAlert({ message: 'Answer was: 5 < 6 && "x" > y </i>' });
    const request = telegram.build(alert, config(), env());
    expect(JSON.parse(request.body).text).toContain(
      '<b>Website *prod* &lt;b&gt; is down</b>\nAnswer was: 5 &lt; 6 &amp;&amp; &quot;x&quot; &gt; y &lt;/i&gt;',
    );
    await sendAccepted(receiver(), request, 200);
    expect(receiver().shown.at(-1)).toContain('Website *prod* <b> is down\nAnswer was: 5 < 6 && "x" > y </i>');
  });

  it('the fake refuses unescaped markup as Telegram does', async () => {
    const request = telegram.build(openedAlert(), config(), env());
    const answer = await send({
      ...request,
      body: JSON.stringify({ chat_id: TELEGRAM_CHAT_ID, text: 'Website <prod> & co', parse_mode: 'HTML' }),
    });
    expect(answer.status).toBe(400);
    expect(JSON.parse(answer.body)).toMatchObject({
      ok: false,
      error_code: 400,
      description: expect.stringContaining("Bad Request: can't parse entities"),
    });
  });

  it('stays within 4,096 characters as shown however long the alert', async () => {
    const request = telegram.build(groupedAlert(1000, { title: '<'.repeat(5000), message: '&'.repeat(9000) }), config(), env());
    await sendAccepted(receiver(), request, 200);
    expect(receiver().shown.at(-1)!.length).toBeLessThanOrEqual(4096);
  });

  itRefusesConfigs(telegram.parseConfig, [
    [{ chat_id: '1' }, 'bot_token', 'Bot token is required.'],
    [{ bot_token: 'abc', chat_id: '1' }, 'bot_token', 'Bot token must be the token @BotFather gave, such as 123456789:AAE….'],
    [{ bot_token: TELEGRAM_BOT_TOKEN }, 'chat_id', 'Chat ID is required.'],
    [
      { bot_token: TELEGRAM_BOT_TOKEN, chat_id: 'my chat' },
      'chat_id',
      'Chat ID must be a numeric chat ID such as -1001234567890 or a channel name such as @mychannel.',
    ],
  ]);

  it('takes a numeric chat id and keeps the bot token secret', () => {
    expect(telegram.parseConfig({ bot_token: TELEGRAM_BOT_TOKEN, chat_id: -1001234567890 }).chat_id).toBe('-1001234567890');
    expect(telegram.secretFields).toEqual(['bot_token']);
  });
});
