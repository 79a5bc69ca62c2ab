// Status-page subscribers through Slack, Microsoft Teams, Discord and SMS over HTTP on both
// databases, against loopback fakes that check each request as the service documents it
// (tests/fixtures/subscribers/chat-fakes.ts): a channel or a number confirms (a link posted to
// the channel, a code texted to the phone), receives an incident update for its chosen
// component and not for another, and unsubscribes; webhooks off the service's hosts are
// refused; a webhook the service says is gone removes its subscriber; a 429 holds the retry
// back; SMS codes are refused when wrong, expired or guessed too often; Twilio's inbound STOP
// (signed) unsubscribes the number everywhere and a forged signature is refused; SMS is offered
// only with the operator's Twilio account and a plan that has it; companies stay apart.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { publicMainOrigin } from '../../../src/server/domain/status-page/public-links.ts';
import { twilioSignature } from '../../../src/server/domain/subscribers/sms-inbound.ts';
import { runDeliveries } from '../../../src/server/notify/outbox/deliver.ts';
import { type ChatFake, startDiscordFake, startSlackFake, startTeamsFake, startTwilioFake } from '../../fixtures/subscribers/chat-fakes.ts';
import { seedCompany, seedUser, signIn } from '../../support/fixtures.ts';
import { rawRequest, startTestApp, type ApiClient, type TestApp } from '../../support/test-app.ts';
import { DB_KINDS } from '../../support/test-db.ts';
import { waitFor } from '../../support/wait-for.ts';
import { seedMonitor } from './fixtures.ts';

const MINUTE = 60_000;
const TWILIO = { sid: `AC${'a1'.repeat(16)}`, token: 'f0'.repeat(16), from: '+15005550006' };
const ACME = 'acme.localhost';
const CHAT_PATHS = {
  slack: '/services/T0001/B0001/abcdefghijklmnop',
  teams: '/workflows/0a1b2c/triggers/manual/paths/invoke',
  discord: '/api/webhooks/123456789012345678/tok-en_1',
} as const;
type ChatKind = keyof typeof CHAT_PATHS;

describe.each(DB_KINDS)('chat and SMS subscribers on %s', (kind) => {
  let t: TestApp;
  let noTwilio: TestApp;
  let fakes: Record<ChatKind, ChatFake>;
  let twilio: ChatFake;
  let clock = Date.UTC(2026, 10, 30, 9, 0, 0);
  let admin: ApiClient;
  let otherAdmin: ApiClient;
  let visitor: ApiClient;
  let acme: { id: string; subdomain: string };
  let ipSeq = 0;
  let pathSeq = 0;

  beforeAll(async () => {
    fakes = { slack: await startSlackFake(), teams: await startTeamsFake(), discord: await startDiscordFake() };
    twilio = await startTwilioFake(TWILIO);
    const env = {
      TRUST_PROXY: 'true',
      ALLOW_PRIVATE_TARGETS: 'true',
      SUBSCRIBER_SLACK_HOSTS: fakes.slack.origin,
      SUBSCRIBER_TEAMS_HOSTS: fakes.teams.origin,
      SUBSCRIBER_DISCORD_HOSTS: fakes.discord.origin,
    };
    t = await startTestApp({
      db: kind,
      now: () => clock,
      env: {
        ...env,
        TWILIO_ACCOUNT_SID: TWILIO.sid,
        TWILIO_AUTH_TOKEN: TWILIO.token,
        TWILIO_FROM: TWILIO.from,
        TWILIO_API_URL: twilio.origin,
      },
    });
    noTwilio = await startTestApp({ db: kind, now: () => clock, env });
    acme = await seedCompany(t.services, { name: 'Acme', subdomain: 'acme', plan: 'professional' });
    const globex = await seedCompany(t.services, { name: 'Globex', subdomain: 'globex', plan: 'professional' });
    await seedCompany(t.services, { name: 'Tiny', subdomain: 'tiny', plan: 'starter' });
    await seedCompany(noTwilio.services, { name: 'Acme', subdomain: 'acme', plan: 'professional' });
    const users = {
      admin: await seedUser(t.services, { userType: 2, companyId: acme.id }),
      other: await seedUser(t.services, { userType: 2, companyId: globex.id }),
    };
    admin = t.client();
    await signIn(admin, users.admin, ACME);
    otherAdmin = t.client();
    await signIn(otherAdmin, users.other, 'globex.localhost');
    visitor = t.client();
  });
  afterAll(async () => {
    await t?.close();
    await noTwilio?.close();
    for (const f of [...Object.values(fakes ?? {}), twilio]) await f?.close();
  });

  const subscribe = (body: unknown, host = ACME, app = t) => {
    clock += 2000; // past the status page snapshot's recheck
    const subdomain = host.split('.')[0];
    return (app === t ? visitor : app.client()).post(`/api/v1/public/subscribers/${subdomain}`, body, {
      host,
      headers: { 'x-forwarded-for': `198.51.100.${++ipSeq % 250}` },
    });
  };
  const confirmCode = (phone: string, code: string, host = ACME, ip = `203.0.113.${++ipSeq % 250}`) =>
    visitor.post(
      `/api/v1/public/subscribers/${host.split('.')[0]}/sms/confirm`,
      { phone, code },
      { host, headers: { 'x-forwarded-for': ip } },
    );
  const postForm = (path: string, body: string, host = ACME) =>
    rawRequest(`${t.baseUrl}${path}`, 'POST', { host: `${host}:${t.port}`, 'content-type': 'application/x-www-form-urlencoded' }, body);
  const deliver = () => runDeliveries(t.services, { holder: 'test', random: () => 0.5 });
  const chatUrl = (k: ChatKind) => `${fakes[k].origin}${CHAT_PATHS[k]}${++pathSeq}`;
  const to = (f: ChatFake, path: string) => f.accepted.filter((r) => r.path === path);
  const confirmTokenIn = (body: string) => body.match(/\/subscribe\/confirm\/([A-Za-z0-9_-]{43})/)![1];
  const unsubscribeIn = (body: string) => body.match(/http:\/\/acme\.localhost:\d+\/unsubscribe\/[0-9a-f-]{36}\.[A-Za-z0-9_-]{43}/)![0];
  const openIncident = async (monitorId: string, title: string) => {
    const r = await admin.post(
      '/api/v1/incidents',
      { title, severity: 'high', message: 'We are investigating.', monitor_id: monitorId },
      { host: ACME },
    );
    expect(r.status).toBe(201);
    return r.body.id as string;
  };
  const update = async (id: string, status: string, message: string) =>
    expect((await admin.post(`/api/v1/incidents/${id}/updates`, { status, message }, { host: ACME })).status).toBe(201);
  const listed = async (client = admin, host = ACME) => (await client.get('/api/v1/subscribers', { host })).body.subscribers as any[];
  /** Twilio's inbound POST: signed with the auth token over the URL it was given, unless forged. */
  const inbound = (params: Record<string, string>, signatureToken = TWILIO.token) => {
    const form = new URLSearchParams({ MessageSid: `SM${'0'.repeat(32)}`, AccountSid: TWILIO.sid, To: TWILIO.from, ...params });
    const url = `${publicMainOrigin(t.config)}/api/v1/public/sms/inbound`;
    return t.client().request('POST', '/api/v1/public/sms/inbound', {
      raw: form.toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-twilio-signature': twilioSignature(signatureToken, url, form) },
    });
  };

  it.each(['slack', 'teams', 'discord'] as const)(
    'a %s channel confirms by the posted link, gets updates of its component only, and unsubscribes',
    async (k) => {
      const fake = fakes[k];
      const api = await seedMonitor(t.services.db, acme.id, clock, { name: `API ${k}` });
      const web = await seedMonitor(t.services.db, acme.id, clock, { name: `Website ${k}` });
      const url = chatUrl(k);
      const path = new URL(url).pathname;
      const r = await subscribe({ kind: k, webhook_url: url, component_ids: [api.id] });
      expect(r.status).toBe(202);
      expect(r.body).toEqual({ status: 'pending' });
      // The confirmation is in the channel before the answer.
      expect(to(fake, path)).toHaveLength(1);
      const confirmation = to(fake, path)[0].body;
      expect(confirmation).toContain('Confirm Acme status updates');
      const token = confirmTokenIn(confirmation);

      // Nothing but the confirmation until someone confirms.
      const early = await openIncident(api.id, `Checkout errors (${k})`);
      await deliver();
      expect(to(fake, path)).toHaveLength(1);

      const done = await postForm(`/subscribe/confirm/${token}`, '');
      expect(done.headers.get('location')).toBe('/subscribe/confirmed');
      expect((await listed()).find((s) => s.kind === k && s.component_ids?.[0] === api.id)?.state).toBe('confirmed');

      await update(early, 'identified', 'A payment provider is failing; we are switching over.');
      await deliver();
      expect(to(fake, path)).toHaveLength(2);
      const notice = to(fake, path)[1].body;
      expect(notice).toContain(`Checkout errors (${k})`);
      expect(notice).toContain('A payment provider is failing; we are switching over.');
      expect(notice).toContain('Identified');
      expect(notice).toContain(`/incidents/${early}`);

      // Another component's incident does not reach this channel.
      const other = await openIncident(web.id, `Website slow (${k})`);
      await update(other, 'identified', 'A cache node is slow.');
      await deliver();
      expect(to(fake, path)).toHaveLength(2);

      // Whoever reads the channel may leave with the link every notice carries.
      const unsubscribe = new URL(unsubscribeIn(notice));
      expect((await postForm(unsubscribe.pathname, 'List-Unsubscribe=One-Click')).status).toBe(200);
      await update(early, 'resolved', 'Payments work again.');
      await update(other, 'resolved', 'Fast again.');
      await deliver();
      expect(to(fake, path)).toHaveLength(2);
      expect(fake.refused).toEqual([]);
    },
  );

  it('refuses webhook URLs off the service, and keeps nothing when the service refuses the confirmation', async () => {
    const wrongHost = await subscribe({ kind: 'slack', webhook_url: `https://hooks.example.com${CHAT_PATHS.slack}` });
    expect(wrongHost.status).toBe(400);
    expect(wrongHost.body.errors?.webhook_url ?? wrongHost.body.detail).toMatch(/Slack webhook URL/);
    const discordAsSlack = await subscribe({ kind: 'slack', webhook_url: chatUrl('discord') });
    expect(discordAsSlack.status).toBe(400);
    const wrongPath = await subscribe({ kind: 'discord', webhook_url: `${fakes.discord.origin}/api/other` });
    expect(wrongPath.status).toBe(400);
    expect((await subscribe({ kind: 'teams' })).status).toBe(400);

    const url = chatUrl('slack');
    fakes.slack.gone(new URL(url).pathname);
    const refused = await subscribe({ kind: 'slack', webhook_url: url });
    expect(refused.status).toBe(400);
    expect(refused.body.detail).toMatch(/Slack did not take the confirmation message \(it answered HTTP 404\)/);
    expect((await listed()).filter((s) => s.webhook_host === new URL(url).host && s.kind === 'slack' && s.state === 'pending')).toEqual([]);
  });

  async function confirmedChat(k: ChatKind, monitorId: string) {
    const url = chatUrl(k);
    expect((await subscribe({ kind: k, webhook_url: url, component_ids: [monitorId] })).status).toBe(202);
    const token = confirmTokenIn(to(fakes[k], new URL(url).pathname)[0].body);
    expect((await postForm(`/subscribe/confirm/${token}`, '')).headers.get('location')).toBe('/subscribe/confirmed');
    return { url, path: new URL(url).pathname };
  }
  const deliveriesOf = (path: string) =>
    t.services.db.k
      .selectFrom('alert_deliveries')
      .innerJoin('status_subscribers', 'status_subscribers.id', 'alert_deliveries.subscriber_id')
      .select([
        'alert_deliveries.state',
        'alert_deliveries.last_error',
        'alert_deliveries.next_attempt_at',
        'status_subscribers.state as subscriber',
      ])
      .where('status_subscribers.webhook_url', 'like', `%${path}`)
      .execute();

  it('a webhook the service says is gone (Teams 410, Discord 10015, Slack no_service) removes its subscriber; the receipt says why', async () => {
    const m = await seedMonitor(t.services.db, acme.id, clock, { name: 'Gone API' });
    const subs = {
      teams: await confirmedChat('teams', m.id),
      discord: await confirmedChat('discord', m.id),
      slack: await confirmedChat('slack', m.id),
    };
    for (const k of ['teams', 'discord', 'slack'] as const) fakes[k].gone(subs[k].path);
    const id = await openIncident(m.id, 'Gone webhooks');
    await update(id, 'resolved', 'Done.');
    await deliver();
    for (const [k, code] of [
      ['teams', 410],
      ['discord', 404],
      ['slack', 404],
    ] as const) {
      // The first notice finds the webhook gone; the later one is not sent at all.
      const rows = await deliveriesOf(subs[k].path);
      expect(rows.map((r) => r.state)).toEqual(['failed', 'failed']);
      const errors = rows.map((r) => r.last_error).sort();
      expect(errors[0]).toMatch(new RegExp(`^HTTP ${code}: the .+ webhook no longer exists; the subscriber was removed$`));
      expect(errors[1]).toBe('The subscriber unsubscribed before delivery');
      expect(rows[0].subscriber).toBe('unsubscribed');
      expect(to(fakes[k], subs[k].path)).toHaveLength(1); // the confirmation only
    }
  });

  it("a 429 holds the next try back for the service's Retry-After", async () => {
    const m = await seedMonitor(t.services.db, acme.id, clock, { name: 'Busy API' });
    const sub = await confirmedChat('discord', m.id);
    fakes.discord.slowDown(sub.path, 120);
    const id = await openIncident(m.id, 'Busy channel');
    await deliver();
    const [first] = await deliveriesOf(sub.path);
    expect(first.state).toBe('retrying');
    expect(Number(first.next_attempt_at)).toBeGreaterThanOrEqual(clock + 120_000);
    expect(to(fakes.discord, sub.path)).toHaveLength(1);
    clock += 121_000;
    await deliver();
    expect(to(fakes.discord, sub.path)).toHaveLength(2);
    expect(to(fakes.discord, sub.path)[1].body).toContain('Busy channel');
    await update(id, 'resolved', 'Done.');
    await deliver();
  });

  const textsTo = (phone: string) => twilio.accepted.filter((r) => r.json.To === phone);
  const codeOf = (phone: string, n: number) =>
    textsTo(phone)[n - 1].json.Body.match(/^(\d{6}) is your code for Acme status alerts/)[1] as string;

  it('an SMS subscriber confirms by code, gets updates of its component only, and STOP from the signed inbound webhook ends it', async () => {
    const phone = '+447911123456';
    const api = await seedMonitor(t.services.db, acme.id, clock, { name: 'SMS API' });
    const web = await seedMonitor(t.services.db, acme.id, clock, { name: 'SMS Website' });
    const r = await subscribe({ kind: 'sms', phone: '+44 7911 123456', component_ids: [api.id] });
    expect(r.status).toBe(202);
    expect(textsTo(phone)).toHaveLength(1);
    const code = codeOf(phone, 1);
    const wrong = await confirmCode(phone, code === '000000' ? '111111' : '000000');
    expect(wrong.status).toBe(400);
    expect(wrong.body.detail).toBe('This code is not right.');
    const ok = await confirmCode('+44 7911 123456', code);
    expect(ok.status).toBe(200);
    expect(ok.body).toEqual({ status: 'confirmed' });
    const welcome = await waitFor(() => textsTo(phone)[1]);
    expect(welcome.json.Body).toMatch(/Reply STOP to end/);
    expect((await confirmCode(phone, code)).status).toBe(400); // used once

    const id = await openIncident(api.id, 'Checkout errors by SMS');
    await update(id, 'identified', 'A payment provider is failing.');
    await deliver();
    const notices = textsTo(phone)
      .slice(2)
      .map((r) => r.json.Body as string);
    expect(notices.length).toBe(2); // opened and identified
    const updated = notices.find((b) => b.startsWith('Acme: Incident update: Checkout errors by SMS'))!;
    expect(updated).toContain(`/incidents/${id}`);
    expect(updated).toContain('Reply STOP to end');
    expect(updated.length).toBeLessThanOrEqual(306); // two GSM segments
    expect(notices.some((b) => b.startsWith('Acme: New incident: Checkout errors by SMS'))).toBe(true);

    const other = await openIncident(web.id, 'Website slow by SMS');
    await deliver();
    expect(textsTo(phone)).toHaveLength(4);

    // A forged signature changes nothing.
    const forged = await inbound({ From: phone, Body: 'STOP' }, 'e1'.repeat(16));
    expect(forged.status).toBe(403);
    expect((await listed()).find((s) => s.phone === phone)?.state).toBe('confirmed');

    const help = await inbound({ From: phone, Body: 'help' });
    expect(help.status).toBe(200);
    expect(help.headers.get('content-type')).toMatch(/^text\/xml/);
    expect(help.text).toMatch(/<Response><Message>StatusWatch status alerts\. Reply STOP .*<\/Message><\/Response>/);

    const stop = await inbound({ From: phone, Body: ' Stop ' });
    expect(stop.status).toBe(200);
    expect(stop.text).toBe('<?xml version="1.0" encoding="UTF-8"?><Response></Response>');
    expect((await listed()).find((s) => s.phone === phone)?.state).toBe('unsubscribed');
    await update(id, 'resolved', 'Payments work again.');
    await update(other, 'resolved', 'Fast again.');
    await deliver();
    expect(textsTo(phone)).toHaveLength(4);

    // Opted out: subscribing again is refused until the number texts START.
    const again = await subscribe({ kind: 'sms', phone });
    expect(again.status).toBe(400);
    expect(again.body.detail).toMatch(/replied STOP\. Text START to \+15005550006/);
    expect((await inbound({ From: phone, Body: 'START' })).status).toBe(200);
    expect((await subscribe({ kind: 'sms', phone })).status).toBe(202);
    expect(textsTo(phone)).toHaveLength(5);
    expect(twilio.refused).toEqual([]);
  });

  it('SMS codes expire after 10 minutes and stop working after 5 wrong guesses', async () => {
    const late = '+447911123401';
    expect((await subscribe({ kind: 'sms', phone: late })).status).toBe(202);
    const code = codeOf(late, 1);
    clock += 10 * MINUTE + 1000;
    const expired = await confirmCode(late, code);
    expect(expired.status).toBe(400);
    expect(expired.body.detail).toBe('This code expired. Ask for a new code.');

    const guessed = '+447911123402';
    expect((await subscribe({ kind: 'sms', phone: guessed })).status).toBe(202);
    const right = codeOf(guessed, 1);
    const wrongCode = right === '123456' ? '654321' : '123456';
    for (let i = 0; i < 5; i++) expect((await confirmCode(guessed, wrongCode)).status).toBe(400);
    const tooMany = await confirmCode(guessed, right);
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.detail).toBe('Too many wrong codes. Ask for a new code.');

    // Codes per number are throttled whoever asks: the fourth request within the hour waits.
    const busy = '+447911123403';
    for (let i = 0; i < 3; i++) expect((await subscribe({ kind: 'sms', phone: busy })).status).toBe(202);
    const fourth = await subscribe({ kind: 'sms', phone: busy });
    expect(fourth.status).toBe(429);
    expect(Number(fourth.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await subscribe({ kind: 'sms', phone: '07911 123456' })).status).toBe(400); // no country code
    const landline = await subscribe({ kind: 'sms', phone: '+44 20 7123 4567' });
    expect(landline.status).toBe(400);
    expect(landline.body.detail).toBe('Enter a mobile number: this one cannot receive text messages');
  });

  it("SMS is offered only with the operator's Twilio account and on plans that have it", async () => {
    const starter = await subscribe({ kind: 'sms', phone: '+447911123404' }, 'tiny.localhost');
    expect(starter.status).toBe(404);
    expect(starter.body.detail).toBe('SMS subscriptions are not offered on this status page.');
    const unset = await subscribe({ kind: 'sms', phone: '+447911123404' }, ACME, noTwilio);
    expect(unset.status).toBe(404);
    const inboundUnset = await noTwilio.client().request('POST', '/api/v1/public/sms/inbound', {
      raw: 'From=%2B447700900321&Body=STOP',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(inboundUnset.status).toBe(404);
  });

  it("keeps companies apart: another company's admins, pages and codes see nothing of these subscribers", async () => {
    const phone = '+447911123405';
    expect((await subscribe({ kind: 'sms', phone })).status).toBe(202);
    const code = codeOf(phone, 1);
    // The right code on another company's page confirms nothing there, and nothing here.
    expect((await confirmCode(phone, code, 'globex.localhost')).status).toBe(400);
    expect((await listed()).find((s) => s.phone === phone)?.state).toBe('pending');
    const onlySms = (await admin.get('/api/v1/subscribers?kind=sms', { host: ACME })).body.subscribers as any[];
    expect(onlySms.length).toBeGreaterThan(0);
    expect(onlySms.every((s) => s.kind === 'sms' && /^\+\d+$/.test(s.phone))).toBe(true);
    const theirs = await listed(otherAdmin, 'globex.localhost');
    expect(theirs.some((s) => s.phone === phone || ['slack', 'teams', 'discord'].includes(s.kind))).toBe(false);

    const url = chatUrl('slack');
    expect((await subscribe({ kind: 'slack', webhook_url: url })).status).toBe(202);
    const token = confirmTokenIn(to(fakes.slack, new URL(url).pathname)[0].body);
    const elsewhere = await postForm(`/subscribe/confirm/${token}`, '', 'globex.localhost');
    expect(elsewhere.headers.get('location')).toBe(`/subscribe/confirm/${token}`);
    expect((await listed()).find((s) => s.kind === 'slack' && s.state === 'pending' && s.webhook_host === new URL(url).host)).toBeTruthy();
  });
});
