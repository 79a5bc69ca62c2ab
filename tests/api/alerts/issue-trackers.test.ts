// Jira Cloud and Linear channels through the real engine and outbox, on both databases: a
// monitor going down opens one issue on each tracker (the first attempt refused by an outage and
// retried), an acknowledgement and the resolution comment on that same issue, and a delivery
// sent again after the tracker took it (its lease lost) neither opens nor comments twice. A
// resolution whose issue is not open yet waits for it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Services } from '../../../src/server/domain/context.ts';
import { createChannel } from '../../../src/server/domain/alerts/channels.ts';
import { listDeliveries } from '../../../src/server/domain/alerts/deliveries.ts';
import { acknowledgeIncident } from '../../../src/server/domain/incidents/acknowledge.ts';
import { listIncidents } from '../../../src/server/domain/incidents/service.ts';
import { createMonitor } from '../../../src/server/domain/monitors/service.ts';
import { createEngine, type Engine } from '../../../src/server/engine/scheduler.ts';
import { runDeliveries } from '../../../src/server/notify/outbox/deliver.ts';
import {
  adfText,
  JIRA_API_TOKEN,
  JIRA_EMAIL,
  JIRA_PROJECT,
  startJiraReceiver,
  type JiraReceiver,
} from '../../fixtures/receivers/jira-receiver.ts';
import { LINEAR_API_KEY, LINEAR_TEAM_ID, startLinearReceiver, type LinearReceiver } from '../../fixtures/receivers/linear-receiver.ts';
import { startHttpTargets, type HttpTargets } from '../../fixtures/targets/http-targets.ts';
import { DB_KINDS } from '../../support/test-db.ts';
import { engineServices, manualClock, seedTenant, type Clock } from '../engine/support.ts';

const EVENTS = ['incident.opened', 'incident.acknowledged', 'incident.resolved'];

describe.each(DB_KINDS)('issue tracker channels on %s', (kind) => {
  let services: Services;
  let engine: Engine;
  let clock: Clock;
  let jira: JiraReceiver;
  let linear: LinearReceiver;
  let targets: HttpTargets;
  /** The later tests' own targets: taking one down leaves the other tests' monitors up */
  let blogTargets: HttpTargets;
  let apiTargets: HttpTargets;
  let t: Awaited<ReturnType<typeof seedTenant>>;

  beforeAll(async () => {
    [jira, linear, targets, blogTargets, apiTargets] = await Promise.all([
      startJiraReceiver(),
      startLinearReceiver(),
      startHttpTargets(),
      startHttpTargets(),
      startHttpTargets(),
    ]);
    clock = manualClock();
    services = await engineServices(kind, { LINEAR_API_URL: linear.url }, clock.now);
    engine = createEngine(services);
    services.monitoring = { engine };
    t = await seedTenant(services);
  });
  afterAll(async () => {
    await Promise.all([jira?.close(), linear?.close(), targets?.close(), blogTargets?.close(), apiTargets?.close()]);
    await engine?.stop();
    for (const hook of services?.onShutdown ?? []) await hook();
    await services?.db.close();
  });

  /** Sends what is due now, with the middle of the jitter (the first retry 10 s later). */
  const deliver = () => runDeliveries(services, { holder: 'test', random: () => 0.5 });
  const round = async () => {
    clock.advance(60_000);
    await engine.runDueNow();
  };
  const states = async (channelId: string) =>
    (await listDeliveries(t.adminCtx, { channel_id: channelId })).map((d) => `${d.event} ${d.state}`).sort();

  it('an incident opens one issue on each tracker and its acknowledgement and resolution comment on it, once each', async () => {
    targets.setUp(true);
    const shop = await createMonitor(t.adminCtx, {
      name: 'Shop',
      type: 'http',
      url: targets.url('/flaky'),
      interval_seconds: 60,
      timeout_seconds: 2,
    } as never);
    const jiraChannel = await createChannel(t.adminCtx, {
      name: 'Jira',
      type: 'jira',
      config: { url: jira.origin, email: JIRA_EMAIL, api_token: JIRA_API_TOKEN, project_key: JIRA_PROJECT, issue_type: 'Incident' },
      events: EVENTS,
      monitor_ids: [shop.id],
    });
    const linearChannel = await createChannel(t.adminCtx, {
      name: 'Linear',
      type: 'linear',
      config: { api_key: LINEAR_API_KEY, team_id: LINEAR_TEAM_ID },
      events: EVENTS,
      monitor_ids: [shop.id],
    });
    // The API token and the API key are never shown back.
    expect(jiraChannel.config).not.toHaveProperty('api_token');
    expect(linearChannel.config).not.toHaveProperty('api_key');
    targets.setUp(false);
    for (let i = 0; i < 5 && (await listIncidents(t.adminCtx, { status: 'open' })).length === 0; i++) await round();
    const [incident] = await listIncidents(t.adminCtx, { status: 'open' });
    expect(incident).toBeDefined();

    // Both trackers are out for the first attempt: nothing is opened, the deliveries retry.
    jira.failNext(503);
    linear.failNext(502);
    await deliver();
    expect([jira.issues.length, linear.issues.length]).toEqual([0, 0]);
    expect(await states(jiraChannel.id)).toEqual(['incident.opened retrying']);
    clock.advance(10_000);
    await deliver();
    expect(jira.refusals()).toEqual([]);
    expect(linear.refusals()).toEqual([]);
    expect(jira.issues).toHaveLength(1);
    expect(jira.issues[0]).toMatchObject({ summary: expect.stringContaining('Shop is down'), issueType: 'Incident' });
    expect(linear.issues).toHaveLength(1);
    expect(linear.issues[0].title).toContain('Shop is down');

    await acknowledgeIncident(t.adminCtx, incident.id);
    await deliver();
    targets.setUp(true);
    for (let i = 0; i < 5 && (await listIncidents(t.adminCtx, { status: 'open' })).length > 0; i++) await round();
    await deliver();
    await deliver();

    expect(jira.issues).toHaveLength(1);
    expect(jira.issues[0].comments.map((c) => adfText(c).split('\n')[0])).toEqual(['Acknowledged: Shop is down', 'Shop is back up']);
    expect(linear.issues).toHaveLength(1);
    expect(linear.issues[0].comments.map((c) => c.split('\n')[0])).toEqual(['**Acknowledged: Shop is down**', '**Shop is back up**']);
    for (const ch of [jiraChannel, linearChannel])
      expect(await states(ch.id)).toEqual(['incident.acknowledged delivered', 'incident.opened delivered', 'incident.resolved delivered']);

    // Every delivery sent again, as after a lost lease (the tracker took it, the receipt was not
    // written): the tracker gets no second issue and no second comment.
    const before = [jira.exchanges.length, linear.exchanges.length];
    await services.db.k.updateTable('alert_deliveries').set({ state: 'retrying', next_attempt_at: clock.now() }).execute();
    await deliver();
    expect([jira.exchanges.length, linear.exchanges.length]).toEqual(before);
    expect([jira.issues.length, jira.issues[0].comments.length, linear.issues.length, linear.issues[0].comments.length]).toEqual([
      1, 2, 1, 2,
    ]);
    expect(await states(jiraChannel.id)).toEqual([
      'incident.acknowledged delivered',
      'incident.opened delivered',
      'incident.resolved delivered',
    ]);
  });

  it("a resolution arriving before its incident's issue is open waits for it, then comments on it", async () => {
    const blogMonitor = await createMonitor(t.adminCtx, {
      name: 'Blog',
      type: 'http',
      url: blogTargets.url('/flaky'),
      interval_seconds: 60,
      timeout_seconds: 2,
    } as never);
    const channel = await createChannel(t.adminCtx, {
      name: 'Jira (late)',
      type: 'jira',
      config: { url: jira.origin, email: JIRA_EMAIL, api_token: JIRA_API_TOKEN, project_key: JIRA_PROJECT },
      events: ['incident.opened', 'incident.resolved'],
      monitor_ids: [blogMonitor.id],
    });
    const issuesBefore = jira.issues.length;
    blogTargets.setUp(false);
    for (let i = 0; i < 5 && (await listIncidents(t.adminCtx, { status: 'open' })).length === 0; i++) await round();
    // Jira is out while the incident opens and resolves: both deliveries wait.
    jira.failNext(503, 1);
    await deliver();
    blogTargets.setUp(true);
    for (let i = 0; i < 5 && (await listIncidents(t.adminCtx, { status: 'open' })).length > 0; i++) await round();
    expect(jira.issues.length).toBe(issuesBefore);
    // Both due together: the opening is sent; the resolution, sent beside it, finds no issue yet
    // and retries. (On PostgreSQL the two go out concurrently, so the opening may already have
    // recorded its issue when the resolution looks: then it comments at once. Either way, one
    // issue and one comment below.)
    clock.advance(10_000);
    await deliver();
    expect(jira.issues.length).toBe(issuesBefore + 1);
    const resolution = (await listDeliveries(t.adminCtx, { channel_id: channel.id })).find((d) => d.event === 'incident.resolved');
    if (kind === 'sqlite' || resolution?.state !== 'delivered')
      expect(resolution).toMatchObject({ state: 'retrying', last_error: 'Waiting for the issue of this incident to be opened' });
    clock.advance(60_000);
    await deliver();
    const opened = jira.issues.slice(issuesBefore);
    expect(opened.filter((i) => i.summary.includes('Blog'))).toHaveLength(1);
    const blog = opened.find((i) => i.summary.includes('Blog'))!;
    expect(blog.comments.map((c) => adfText(c).split('\n')[0])).toEqual(['Blog is back up']);
    expect(await states(channel.id)).toEqual(['incident.opened delivered', 'incident.resolved delivered']);
  });

  it('an opening whose answer was lost is found on the retry, not opened again', async () => {
    const apiMonitor = await createMonitor(t.adminCtx, {
      name: 'Public API',
      type: 'http',
      url: apiTargets.url('/flaky'),
      interval_seconds: 60,
      timeout_seconds: 2,
    } as never);
    const only = { events: ['incident.opened', 'incident.resolved'], monitor_ids: [apiMonitor.id] };
    const jiraChannel = await createChannel(t.adminCtx, {
      name: 'Jira (lost answers)',
      type: 'jira',
      config: { url: jira.origin, email: JIRA_EMAIL, api_token: JIRA_API_TOKEN, project_key: JIRA_PROJECT },
      ...only,
    });
    const linearChannel = await createChannel(t.adminCtx, {
      name: 'Linear (lost answers)',
      type: 'linear',
      config: { api_key: LINEAR_API_KEY, team_id: LINEAR_TEAM_ID },
      ...only,
    });
    const before = [jira.issues.length, linear.issues.length];
    apiTargets.setUp(false);
    for (let i = 0; i < 5 && (await listIncidents(t.adminCtx, { status: 'open' })).length === 0; i++) await round();
    // Both services open the issue, but a gateway loses their answers: the deliveries retry.
    jira.loseNextAnswer();
    linear.loseNextAnswer();
    await deliver();
    expect([jira.issues.length, linear.issues.length]).toEqual([before[0] + 1, before[1] + 1]);
    expect(await states(jiraChannel.id)).toEqual(['incident.opened retrying']);
    clock.advance(10_000);
    await deliver();
    apiTargets.setUp(true);
    for (let i = 0; i < 5 && (await listIncidents(t.adminCtx, { status: 'open' })).length > 0; i++) await round();
    await deliver();
    // Still one issue each, and the resolution commented on it.
    expect([jira.issues.length, linear.issues.length]).toEqual([before[0] + 1, before[1] + 1]);
    expect(jira.issues.at(-1)!.comments.map((c) => adfText(c).split('\n')[0])).toEqual(['Public API is back up']);
    expect(linear.issues.at(-1)!.comments.map((c) => c.split('\n')[0])).toEqual(['**Public API is back up**']);
    expect(jira.issues.at(-1)!.labels).toEqual(['statuswatch', expect.stringMatching(/^statuswatch-incident-/)]);
    for (const ch of [jiraChannel, linearChannel])
      expect(await states(ch.id)).toEqual(['incident.opened delivered', 'incident.resolved delivered']);
    expect(jira.refusals()).toEqual([]);
    expect(linear.refusals()).toEqual([]);
  });
});
