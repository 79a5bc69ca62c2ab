import { describe, expect, it } from 'vitest';
import { deliveredAlerts, sendAccepted, receiverForFile, itRefusesConfigs } from '../../../../tests/fixtures/receivers/channel-harness.ts';
import { envFor, groupedAlert, openedAlert, send } from '../../../../tests/fixtures/receivers/sample-alerts.ts';
import { startTwilioReceiver, TWILIO_ACCOUNT_SID, TWILIO_AUTH_TOKEN } from '../../../../tests/fixtures/receivers/twilio-receiver.ts';
import { twilioSms } from './twilio-sms.ts';

const receiver = receiverForFile(startTwilioReceiver);

const raw = { account_sid: TWILIO_ACCOUNT_SID, auth_token: TWILIO_AUTH_TOKEN, from: '+14155550100', to: '+447700900123' };
const config = (over: Record<string, unknown> = {}) => twilioSms.parseConfig({ ...raw, ...over });
const env = () => envFor({ twilio: receiver().origin });

describe('SMS channel (Twilio)', () => {
  it.each(deliveredAlerts())('Twilio accepts the %s alert', async (_what, alert) => {
    const answer = await sendAccepted(receiver(), twilioSms.build(alert, config(), env()), 201);
    expect(JSON.parse(answer.body)).toMatchObject({
      account_sid: TWILIO_ACCOUNT_SID,
      to: '+447700900123',
      from: '+14155550100',
      status: 'queued',
    });
  });

  it('writes a short text: the company, the title, the target and the acknowledge link', () => {
    const body = new URLSearchParams(twilioSms.build(openedAlert(), config(), env()).body).get('Body');
    expect(body).toBe(
      '[Acme & Sons <Ltd>] Website *prod* <b> is down\nhttps://acme.example.com/health?a=1&b=2\nAck: http://acme.localhost:4321/api/v1/ack?token=abc&sig=def',
    );
    const grouped = new URLSearchParams(twilioSms.build(groupedAlert(1000), config(), env()).body).get('Body');
    expect(grouped).toContain(
      '(1000 monitors)\nService 1 <api> & co, Service 2 <api> & co, Service 3 <api> & co, Service 4 <api> & co, Service 5 <api> & co +995 more',
    );
  });

  it("cuts the body to Twilio's 1,600 characters", async () => {
    const request = twilioSms.build(openedAlert({ title: 'z'.repeat(5000) }), config(), env());
    expect(new URLSearchParams(request.body).get('Body')).toHaveLength(1600);
    await sendAccepted(receiver(), request, 201);
  });

  it('sends through a Messaging Service when From is an MG… SID', async () => {
    const request = twilioSms.build(openedAlert(), config({ from: 'MG0123456789abcdef0123456789abcdef' }), env());
    expect(new URLSearchParams(request.body).get('MessagingServiceSid')).toBe('MG0123456789abcdef0123456789abcdef');
    await sendAccepted(receiver(), request, 201);
  });

  it('the fake refuses what Twilio refuses: a body over 1,600 characters, a wrong token', async () => {
    const request = twilioSms.build(openedAlert(), config(), env());
    const long = await send({ ...request, body: new URLSearchParams({ To: raw.to, From: raw.from, Body: 'x'.repeat(1601) }).toString() });
    expect(JSON.parse(long.body)).toMatchObject({ code: 21617, status: 400 });
    const wrong = await send(twilioSms.build(openedAlert(), config({ auth_token: '0'.repeat(32) }), env()));
    expect(JSON.parse(wrong.body)).toEqual({
      code: 20003,
      message: 'Authenticate',
      more_info: 'https://www.twilio.com/docs/errors/20003',
      status: 401,
    });
  });

  itRefusesConfigs(
    (over) => twilioSms.parseConfig({ ...raw, ...over }),
    [
      [{ to: '07700 900123' }, 'to', 'To must be a phone number in international format such as +14155550123.'],
      [{ to: '+0123' }, 'to', 'To must be a phone number in international format such as +14155550123.'],
      [
        { from: 'StatusWatch' },
        'from',
        'From must be a phone number in international format such as +14155550123, or a Messaging Service SID (MG…).',
      ],
      [{ account_sid: 'AB123' }, 'account_sid', 'Account SID must be AC followed by 32 hexadecimal digits.'],
      [{ auth_token: undefined }, 'auth_token', 'Auth token is required.'],
    ],
  );

  it('keeps the auth token secret', () => {
    expect(twilioSms.secretFields).toEqual(['auth_token']);
  });
});
