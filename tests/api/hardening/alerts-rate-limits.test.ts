// Per-channel rate limits and sending right after the commit, on both databases in real time:
// two processes sending for one Slack hook and one Telegram group never put two messages closer
// than the service allows (1 s, 3 s), and every message still arrives (waiting is not an
// attempt); a 429 with Retry-After holds the whole channel; a state change's delivery reaches
// the webhook receiver right after its commit, without the 1 s job.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Services } from '../../../src/server/domain/context.ts';
import { createChannel, testChannel } from '../../../src/server/domain/alerts/channels.ts';
import { listDeliveries } from '../../../src/server/domain/alerts/deliveries.ts';
import { createMonitor } from '../../../src/server/domain/monitors/service.ts';
import { createEngine } from '../../../src/server/engine/scheduler.ts';
import { startDeliveryWaker } from '../../../src/server/jobs/alert-delivery.ts';
import { runDeliveries } from '../../../src/server/notify/outbox/deliver.ts';
import { startWebhookReceiver, type WebhookReceiver } from '../../fixtures/alerts/webhook-receiver.ts';
import type { Receiver } from '../../fixtures/receivers/receiver-server.ts';
import { SLACK_HOOK_PATH, startSlackReceiver } from '../../fixtures/receivers/slack-receiver.ts';
import { startTelegramReceiver, TELEGRAM_BOT_TOKEN, TELEGRAM_CHAT_ID } from '../../fixtures/receivers/telegram-receiver.ts';
import { startHttpTargets, type HttpTargets } from '../../fixtures/targets/http-targets.ts';
import { servicesOn } from '../../support/alert-services.ts';
import { DB_KINDS, newDatabaseLocation } from '../../support/test-db.ts';
import { seedTenant } from '../engine/support.ts';
import { waitFor } from '../../support/wait-for.ts';

// The next slot opens a full gap after the previous send's answer, so the fakes (same machine's
// clock) see at least the gap between two arrivals, with no allowance for transport jitter.
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const gapsOf = (times: number[]) => times.slice(1).map((t, i) => t - times[i]);

describe.each(DB_KINDS)('alert rate limits on %s', (kind) => {
  let a: Services;
  let b: Services;
  let slack: Receiver;
  let telegram: Receiver;
  let hook: WebhookReceiver;
  let targets: HttpTargets;
  let t: Awaited<ReturnType<typeof seedTenant>>;

  beforeAll(async () => {
    [slack, telegram, hook, targets] = await Promise.all([
      startSlackReceiver(),
      startTelegramReceiver(),
      startWebhookReceiver(),
      startHttpTargets(),
    ]);
    const location = await newDatabaseLocation(kind);
    const env = { TELEGRAM_API_URL: telegram.origin };
    a = await servicesOn(location, undefined, env);
    b = await servicesOn(location, undefined, env); // a second process on the same database
    t = await seedTenant(a);
  });
  afterAll(async () => {
    await Promise.all([slack?.close(), telegram?.close(), hook?.close(), targets?.close()]);
    for (const s of [a, b]) {
      for (const h of s?.onShutdown ?? []) await h();
      await s?.db.close();
    }
  });

  /** Both processes send what is due, every 50 ms, until `done` or 20 s. */
  async function sendUntil(done: () => boolean) {
    const until = Date.now() + 20_000;
    while (!done() && Date.now() < until) {
      await Promise.all([runDeliveries(a, { holder: 'proc-a' }), runDeliveries(b, { holder: 'proc-b' })]);
      await sleep(50);
    }
  }

  it('two processes sending for a Slack hook (1/s) and a Telegram group (20/min): no two messages within the limit, none lost', async () => {
    const chat = await createChannel(t.adminCtx, { name: 'Slack', type: 'slack', config: { url: `${slack.origin}${SLACK_HOOK_PATH}` } });
    const group = await createChannel(t.adminCtx, {
      name: 'Telegram group',
      type: 'telegram',
      config: { bot_token: TELEGRAM_BOT_TOKEN, chat_id: TELEGRAM_CHAT_ID },
    });
    // Send test is never grouped: each is its own message.
    for (let i = 0; i < 4; i++) await testChannel(t.adminCtx, chat.id);
    for (let i = 0; i < 3; i++) await testChannel(t.adminCtx, group.id);
    await sendUntil(() => slack.exchanges.length >= 4 && telegram.exchanges.length >= 3);

    expect(slack.refusals()).toEqual([]);
    expect(telegram.refusals()).toEqual([]);
    expect(slack.accepted()).toHaveLength(4);
    expect(telegram.accepted()).toHaveLength(3);
    for (const gap of gapsOf(slack.exchanges.map((e) => e.request.at))) expect(gap).toBeGreaterThanOrEqual(1000);
    for (const gap of gapsOf(telegram.exchanges.map((e) => e.request.at))) expect(gap).toBeGreaterThanOrEqual(3000);
    // Waiting for a slot is neither an attempt nor an error in the receipts.
    for (const channelId of [chat.id, group.id]) {
      for (const d of await listDeliveries(t.adminCtx, { channel_id: channelId })) {
        expect(d).toMatchObject({ state: 'delivered', attempts: 1, last_error: null });
      }
    }
  }, 30_000);

  it("a 429's Retry-After holds every delivery of the channel, not only the refused one", async () => {
    const ch = await createChannel(t.adminCtx, { name: 'Busy hook', type: 'webhook', config: { url: hook.url('/busy') } });
    hook.script({ status: 429, headers: { 'retry-after': '2' } });
    await testChannel(t.adminCtx, ch.id);
    await runDeliveries(a, { holder: 'proc-a' });
    const refusedAt = hook.received[0].at;
    await testChannel(t.adminCtx, ch.id);
    await sendUntil(() => hook.received.length >= 2);
    expect(hook.received).toHaveLength(2);
    expect(hook.received[1].at - refusedAt).toBeGreaterThanOrEqual(2000);
  }, 30_000);

  it('a state change reaches the webhook right after its commit, without waiting for the job', async () => {
    hook.received.length = 0;
    hook.script();
    startDeliveryWaker(a);
    const ch = await createChannel(t.adminCtx, {
      name: 'Fast hook',
      type: 'webhook',
      config: { url: hook.url('/fast') },
      events: ['incident.opened'],
    });
    targets.setUp(false);
    await createMonitor(t.adminCtx, {
      name: 'Checkout',
      type: 'http',
      url: targets.url('/flaky'),
      interval_seconds: 60,
      confirmations: 1,
    } as never);
    const engine = createEngine(a);
    const committed = Date.now();
    await engine.runDueNow();
    // (The busy hook's retry of the test before may arrive meanwhile: only /fast counts.)
    const fast = () => hook.received.filter((r) => r.path === '/fast');
    await waitFor(() => fast().length > 0, { what: 'the webhook at /fast' });
    expect(fast()).toHaveLength(1);
    expect(fast()[0].at - committed).toBeLessThan(1000);
    // The receipt is written once the receiver has answered.
    const delivered = async () => {
      const [d] = await listDeliveries(t.adminCtx, { channel_id: ch.id });
      return d.state === 'delivered' && d;
    };
    const d = await waitFor(delivered, { what: 'the receipt written' });
    expect(d).toMatchObject({ event: 'incident.opened', state: 'delivered' });
    // Send test too leaves at once.
    await testChannel(t.adminCtx, ch.id);
    await waitFor(() => fast().length > 1, { what: "the channel test's webhook at /fast" });
    expect(fast()).toHaveLength(2);
  }, 30_000);
});
