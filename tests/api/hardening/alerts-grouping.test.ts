// No alert storms, end to end on both databases with the real engine, a real Slack fake, a real
// webhook receiver and a real SMTP sink: 200 monitors going down within a minute make one
// grouped Slack message (the other 199 deliveries are `grouped`, pointing at it), the webhook
// still gets one event per monitor at once, e-mail sends the first alert alone at once and the
// rest of the burst as one mail, each user's personal e-mail does the same (per person), a
// personal SMS goes once listing the storm, and recovering makes one grouped "up again" message.
// Alerts about no monitor (escalations of incidents opened by hand) are never merged.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Services } from '../../../src/server/domain/context.ts';
import { createChannel } from '../../../src/server/domain/alerts/channels.ts';
import { listDeliveries, retryDelivery } from '../../../src/server/domain/alerts/deliveries.ts';
import { putEscalationPolicy, runEscalations } from '../../../src/server/domain/alerts/escalation.ts';
import { createIncident } from '../../../src/server/domain/incidents/service.ts';
import { createMonitor } from '../../../src/server/domain/monitors/service.ts';
import { putPreferences } from '../../../src/server/domain/notifications/service.ts';
import { createEngine, type Engine } from '../../../src/server/engine/scheduler.ts';
import { runDeliveries } from '../../../src/server/notify/outbox/deliver.ts';
import { mergePayloads } from '../../../src/server/notify/outbox/grouping.ts';
import { startWebhookReceiver, type WebhookReceiver } from '../../fixtures/alerts/webhook-receiver.ts';
import type { Receiver } from '../../fixtures/receivers/receiver-server.ts';
import { SLACK_HOOK_PATH, startSlackReceiver } from '../../fixtures/receivers/slack-receiver.ts';
import {
  startTwilioReceiver,
  TWILIO_ACCOUNT_SID,
  TWILIO_AUTH_TOKEN,
  type TwilioReceiver,
} from '../../fixtures/receivers/twilio-receiver.ts';
import { startHttpTargets, type HttpTargets } from '../../fixtures/targets/http-targets.ts';
import { startSmtpSink, type SmtpSink } from '../../support/smtp-sink.ts';
import { DB_KINDS } from '../../support/test-db.ts';
import { engineServices, manualClock, seedTenant, type Clock } from '../engine/support.ts';

const MONITORS = 200;

describe.each(DB_KINDS)('alert grouping on %s', (kind) => {
  let services: Services;
  let engine: Engine;
  let targets: HttpTargets;
  let slack: Receiver;
  let hook: WebhookReceiver;
  let smtp: SmtpSink;
  let twilio: TwilioReceiver;
  let clock: Clock;
  let t: Awaited<ReturnType<typeof seedTenant>>;

  beforeAll(async () => {
    [targets, slack, hook, smtp, twilio] = await Promise.all([
      startHttpTargets(),
      startSlackReceiver(),
      startWebhookReceiver(),
      startSmtpSink(),
      startTwilioReceiver(),
    ]);
    clock = manualClock();
    const sms = { TWILIO_API_URL: twilio.origin, TWILIO_ACCOUNT_SID, TWILIO_AUTH_TOKEN, TWILIO_FROM: '+15005550006' };
    services = await engineServices(kind, { SMTP_URL: smtp.url, ...sms }, clock.now);
    engine = createEngine(services);
    services.monitoring = { engine };
    t = await seedTenant(services);
    // Both users get incident e-mails (the default); the admin also wants SMS.
    await putPreferences(t.adminCtx, { sms_enabled: true, phone: '+4917012345678' });
  });
  afterAll(async () => {
    await Promise.all([targets?.close(), slack?.close(), hook?.close(), smtp?.close(), twilio?.close()]);
    for (const h of services?.onShutdown ?? []) await h();
    await services?.db.close();
  });

  /** Checks and deliveries in 5 s steps of the manual clock for `seconds`. */
  async function live(seconds: number) {
    for (let s = 0; s < seconds; s += 5) {
      clock.advance(5_000);
      await engine.runDueNow();
      for (let i = 0; i < 30 && (await runDeliveries(services, { holder: 'grouping-test' })) > 0; i++);
    }
  }

  it(`${MONITORS} monitors down within a minute: one grouped Slack message, one webhook event each, at most two e-mails per address, one SMS`, async () => {
    targets.setUp(true);
    const monitors = [];
    for (let i = 0; i < MONITORS; i++)
      monitors.push(
        await createMonitor(t.adminCtx, {
          name: `Service ${i + 1}`,
          type: 'http',
          url: targets.url(`/flaky?m=${i}`),
          interval_seconds: 60,
          confirmations: 1,
        } as never),
      );
    const chat = await createChannel(t.adminCtx, {
      name: 'Ops Slack',
      type: 'slack',
      config: { url: `${slack.origin}${SLACK_HOOK_PATH}` },
      events: ['incident.opened', 'incident.resolved'],
    });
    const webhook = await createChannel(t.adminCtx, {
      name: 'Ops hook',
      type: 'webhook',
      config: { url: hook.url('/ops') },
      events: ['incident.opened', 'incident.resolved'],
    });
    const mail = await createChannel(t.adminCtx, {
      name: 'On-call mail',
      type: 'email',
      config: { to: ['oncall@example.com'] },
      events: ['incident.opened'],
    });
    await engine.runDueNow(); // first checks: all up
    // Each monitor on its own phase, spread over the minute (as monitors settle after their first
    // checks): going down, they are found out one after another over 60 s.
    for (const [i, m] of monitors.entries())
      await services.db.k
        .updateTable('monitors')
        .set({ next_due_at: clock.now() + Math.floor((i / MONITORS) * 60_000) + 1 })
        .where('id', '=', m.id)
        .execute();
    targets.setUp(false);
    const downFrom = clock.now();
    await live(60);
    const opened = await listDeliveries(t.adminCtx, { channel_id: webhook.id, limit: 500 } as never);
    expect(opened).toHaveLength(MONITORS);
    const openedAt = opened.map((d) => Date.parse(d.created_at) - downFrom);
    expect(Math.max(...openedAt) - Math.min(...openedAt)).toBeGreaterThanOrEqual(50_000);
    expect(hook.received).toHaveLength(MONITORS);
    expect(slack.exchanges).toHaveLength(0); // held: the channel is not quiet yet
    await live(30);
    expect(clock.now() - downFrom).toBeLessThanOrEqual(95_000);

    expect(slack.refusals()).toEqual([]);
    expect(slack.accepted()).toHaveLength(1);
    const body = JSON.parse(slack.accepted()[0].request.body) as { text: string; blocks: Array<{ type: string; text?: { text: string } }> };
    expect(body.blocks[0].text!.text).toBe(`${MONITORS} monitors are down`);
    const list = body.blocks.find((b) => b.text?.text.startsWith(`*${MONITORS} monitors*`))!.text!.text;
    expect(list).toContain('*Service 1*');
    expect(list).toMatch(/…and \d+ more$/);

    const receipts = await listDeliveries(t.adminCtx, { channel_id: chat.id, limit: 500 } as never);
    expect(receipts).toHaveLength(MONITORS);
    const carrier = receipts.filter((d) => d.state === 'delivered');
    expect(carrier).toHaveLength(1);
    const grouped = receipts.filter((d) => d.state === 'grouped');
    expect(grouped).toHaveLength(MONITORS - 1);
    expect(new Set(grouped.map((d) => d.grouped_into))).toEqual(new Set([carrier[0].id]));
    expect(slack.accepted()[0].request.headers['content-type']).toBe('application/json');
    // A grouped delivery went out with its carrier: Retry points there instead.
    await expect(retryDelivery(t.adminCtx, grouped[0].id)).rejects.toMatchObject({ code: 'conflict' });

    // Webhooks are never held nor merged: every monitor's own event, signed with its own id.
    expect(new Set(hook.received.map((r) => r.headers['webhook-id'])).size).toBe(MONITORS);

    // E-mail: the first alert went at once (with any written in the same instant), the rest of
    // the burst (if any came later) as one more mail; together they name every monitor. The
    // channel's address and each user's own address alike.
    const named = (raw: string) => new Set([...raw.matchAll(/Service (\d+)\b/g)].map((m) => m[1]));
    const allNames = new Set(monitors.map((m) => m.name.slice('Service '.length)));
    const mailsTo = (address: string) => smtp.mails.filter((m) => m.to.includes(address)).map((m) => m.raw.replace(/=\r?\n/g, ''));
    for (const address of ['oncall@example.com', t.admin.email, t.viewer.email]) {
      const mails = mailsTo(address);
      expect(mails.length, address).toBeGreaterThanOrEqual(1);
      expect(mails.length, address).toBeLessThanOrEqual(2);
      expect(new Set(mails.flatMap((m) => [...named(m)])), address).toEqual(allNames);
      const inFirst = named(mails[0]).size;
      if (mails.length === 2) expect(mails[1]).toMatch(new RegExp(`Subject: \\[[^\\]]+\\] ${MONITORS - inFirst} monitors are down`));
    }
    expect(smtp.mails.every((m) => m.to.length === 1)).toBe(true);
    const channelMails = mailsTo('oncall@example.com').length;
    const mailReceipts = await listDeliveries(t.adminCtx, { channel_id: mail.id, limit: 500 } as never);
    expect(mailReceipts.filter((d) => d.state === 'delivered')).toHaveLength(channelMails);
    expect(mailReceipts.filter((d) => d.state === 'grouped')).toHaveLength(MONITORS - channelMails);

    // Personal SMS is held like the SMS channel: one message for the storm, naming a few.
    expect(twilio.messages).toHaveLength(1);
    expect(twilio.messages[0]).toMatchObject({ to: '+4917012345678', from: '+15005550006' });
    expect(twilio.messages[0].body).toContain(`${MONITORS} monitors are down`);
    expect(twilio.messages[0].body).toMatch(/\+195 more/);

    // Recovery: one grouped "up again" message.
    targets.setUp(true);
    await live(100);
    expect(slack.accepted()).toHaveLength(2);
    const up = JSON.parse(slack.accepted()[1].request.body) as { blocks: Array<{ text?: { text: string } }> };
    expect(up.blocks[0].text!.text).toBe(`${MONITORS} monitors are up again`);
    expect(hook.received).toHaveLength(2 * MONITORS);
  }, 180_000);

  it('alerts about no monitor (two incidents opened by hand, escalated at once) are never merged: each reaches chat and the person', async () => {
    const chat = await startSlackReceiver();
    try {
      const channel = await createChannel(t.adminCtx, {
        name: 'Escalation Slack',
        type: 'slack',
        config: { url: `${chat.origin}${SLACK_HOOK_PATH}` },
        events: ['incident.opened'], // the policy names it: its event filter does not apply to escalation
      });
      await putEscalationPolicy(t.adminCtx, { steps: [{ after_minutes: 0, channel_ids: [channel.id], user_ids: [t.admin.id] }] });
      const mailsBefore = smtp.mails.length;
      const smsBefore = twilio.messages.length;
      const titles = ['Payments failing', 'Search slow'];
      for (const title of titles) await createIncident(t.adminCtx, { title, severity: 'high', message: 'Investigating.' });
      expect(await runEscalations(services, clock.now())).toBe(2);
      await live(30);
      const texts = chat.accepted().map((e) => e.request.body);
      const mails = smtp.mails.slice(mailsBefore).filter((m) => m.to.includes(t.admin.email));
      const sms = twilio.messages.slice(smsBefore);
      for (const title of titles) {
        expect(
          texts.filter((b) => b.includes(title)),
          title,
        ).toHaveLength(1);
        expect(
          mails.filter((m) => m.raw.replace(/=\r?\n/g, '').includes(title)),
          title,
        ).toHaveLength(1);
        expect(
          sms.filter((m) => m.body.includes(title)),
          title,
        ).toHaveLength(1);
      }
      expect(texts).toHaveLength(2);
      expect(mails).toHaveLength(2);
      expect(sms).toHaveLength(2);
    } finally {
      await chat.close();
    }
  });
});

describe('merging alerts into one', () => {
  const one = (i: number, severity: 'high' | 'critical', at: number) => ({
    event: 'incident.opened' as const,
    severity,
    title: `Service ${i} is down`,
    message: 'The check failed.',
    occurredAt: at,
    monitor: { id: `m-${i}`, name: `Service ${i}`, target: `https://s${i}.example.com` },
    monitors: [],
    incident: { id: `inc-${i}`, title: 'x', status: 'investigating', impact: 'major' },
    maintenance: null,
  });

  it('lists every monitor once, takes the highest severity and says when', () => {
    const t0 = Date.UTC(2026, 10, 24, 10, 2, 1);
    const merged = mergePayloads([one(1, 'high', t0), one(2, 'critical', t0 + 57_000), one(1, 'high', t0 + 9_000)]);
    expect(merged).toMatchObject({
      title: '2 monitors are down',
      message: '2 monitors went down between 10:02:01 and 10:02:58 UTC.',
      severity: 'critical',
      monitor: null,
      incident: null,
      occurredAt: t0,
    });
    expect(merged.monitors.map((m) => m.id)).toEqual(['m-1', 'm-2']);
    // A carrier merged before (a crash between merging and sending) merges again without loss.
    expect(mergePayloads([merged, one(3, 'high', t0)]).monitors.map((m) => m.id)).toEqual(['m-1', 'm-2', 'm-3']);
  });

  it('one monitor changing twice stays a single alert', () => {
    const a = one(1, 'high', 0);
    expect(mergePayloads([a, one(1, 'high', 5)])).toBe(a);
  });
});
