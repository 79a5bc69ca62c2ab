// Groups and dependencies on both databases, with real checks against a loopback switchboard and
// real alert deliveries to a loopback webhook receiver and SMTP sink:
// - a parent down with 20 dependents failing opens ONE incident and sends one alert per channel,
//   naming the 20; once the parent is back, dependents still down open their own incidents;
// - a group's status follows its children by its rule (any, all, at least N);
// - children and parents are the company's own monitors and form no cycle.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Services } from '../../../src/server/domain/context.ts';
import { createChannel } from '../../../src/server/domain/alerts/channels.ts';
import { createMonitor, getMonitor, updateMonitor } from '../../../src/server/domain/monitors/service.ts';
import { listIncidents } from '../../../src/server/domain/incidents/service.ts';
import { testMonitor } from '../../../src/server/domain/monitors/test-now.ts';
import { createEngine, type Engine } from '../../../src/server/engine/scheduler.ts';
import { groupVerdict } from '../../../src/server/engine/checkers/group.ts';
import { runDeliveries } from '../../../src/server/notify/outbox/deliver.ts';
import { startWebhookReceiver, type WebhookReceiver } from '../../fixtures/alerts/webhook-receiver.ts';
import { startSmtpSink, type SmtpSink } from '../../support/smtp-sink.ts';
import { startSwitchboard, type Switchboard } from '../../support/kind-servers/switchboard.ts';
import { servicesOn } from '../../support/alert-services.ts';
import { DB_KINDS, newDatabaseLocation } from '../../support/test-db.ts';
import { manualClock, seedTenant, type Clock } from './support.ts';

describe('a group by its rule', () => {
  const kids = (statuses: string[]) =>
    statuses.map((status, i) => ({ id: `c${i}`, name: `C${i}`, status: status as 'down', inactive: status === 'paused' }));
  it.each([
    ['any', null, ['operational', 'operational', 'operational'], 'operational'],
    ['any', null, ['operational', 'degraded', 'operational'], 'degraded'],
    ['any', null, ['operational', 'down', 'operational'], 'down'],
    ['all', null, ['down', 'down', 'operational'], 'degraded'],
    ['all', null, ['down', 'down', 'down'], 'down'],
    ['all', null, ['down', 'down', 'paused'], 'down'],
    ['at_least', 2, ['down', 'operational', 'operational'], 'degraded'],
    ['at_least', 2, ['down', 'down', 'operational'], 'down'],
    ['at_least', 2, ['down', 'paused', 'operational'], 'degraded'],
    ['any', null, ['paused', 'paused'], 'operational'],
  ] as const)('%s (N=%s) of %j is %s', (rule, n, statuses, expected) => {
    expect(groupVerdict({ group_rule: rule, group_min_down: n }, kids([...statuses])).status).toBe(expected);
  });
  it('names the children down', () => {
    expect(groupVerdict({ group_rule: 'all' }, kids(['down', 'operational', 'down']))).toEqual({
      status: 'degraded',
      error: '2 of 3 down: C0, C2',
    });
  });
});

describe.each(DB_KINDS)('groups and dependencies on %s', (kind) => {
  let services: Services;
  let engine: Engine;
  let board: Switchboard;
  let receiver: WebhookReceiver;
  let smtp: SmtpSink;
  let clock: Clock;

  beforeAll(async () => {
    board = await startSwitchboard();
    receiver = await startWebhookReceiver();
    smtp = await startSmtpSink();
    clock = manualClock();
    services = await servicesOn(await newDatabaseLocation(kind), clock.now, { SMTP_URL: smtp.url, MAX_CHECKS_PER_HOST_PER_MINUTE: '0' });
    engine = createEngine(services);
    services.monitoring = { engine, immediateChecks: { windowMs: 0, perCompany: Infinity } };
  });
  afterAll(async () => {
    await engine?.stop();
    await Promise.all([board?.close(), receiver?.close(), smtp?.close()]);
    for (const hook of services?.onShutdown ?? []) await hook();
    await services?.db.close();
  });
  beforeEach(() => {
    board.down.clear();
    receiver.received.length = 0;
  });

  /** One interval: every monitor due is checked (a company's long line is given back and run on the next tick). */
  const step = async (ms = 60_000) => {
    clock.advance(ms);
    while ((await engine.runDueNow()) > 0);
  };
  const http = (ctx: Awaited<ReturnType<typeof seedTenant>>['adminCtx'], name: string, extra: Record<string, unknown> = {}) =>
    createMonitor(ctx, {
      name,
      type: 'http',
      url: board.url(name),
      interval_seconds: 60,
      timeout_seconds: 2,
      is_public: false,
      ...extra,
    } as never);

  it('a parent down with 20 dependents failing: one incident and one alert per channel, naming the 20; then their own', async () => {
    const t = await seedTenant(services);
    const db = await http(t.adminCtx, `${kind} Database`);
    const deps = [];
    for (let i = 1; i <= 20; i++) deps.push(await http(t.adminCtx, `${kind} App ${i}`, { parents: [db.id] }));
    expect(deps[0].parents).toEqual([db.id]);
    const hook = await createChannel(t.adminCtx, {
      name: 'Ops hook',
      type: 'webhook',
      config: { url: receiver.url(`/${kind}`) },
      events: ['incident.opened', 'incident.resolved'],
      monitor_ids: null,
    });
    await createChannel(t.adminCtx, {
      name: 'On-call mail',
      type: 'email',
      config: { to: [`oncall-${kind}@example.com`] },
      events: ['incident.opened', 'incident.resolved'],
    });
    expect(hook.id).toBeTruthy();
    await step(0);
    expect((await getMonitor(t.adminCtx, deps[19].id)).status).toBe('operational');

    // The database goes down, and every app with it.
    board.down.add(`${kind} Database`);
    for (const d of deps) board.down.add(d.name);
    await step();
    await step();
    for (const d of [db, ...deps]) expect((await getMonitor(t.adminCtx, d.id)).status).toBe('down');
    const incidents = await listIncidents(t.adminCtx, {});
    expect(incidents.map((i) => i.title)).toEqual([`${kind} Database is down`]);
    const mailsBefore = smtp.mails.length;
    await runDeliveries(services, { holder: 'a' });
    const hooks = receiver.received.filter((r) => r.path === `/${kind}`);
    expect(hooks).toHaveLength(1);
    const payload = JSON.parse(hooks[0].body) as { type: string; data: Record<string, unknown> };
    expect(payload.type).toBe('incident.opened');
    expect(JSON.stringify(payload)).toContain(`${kind} Database down: 20 dependent monitors unreachable`);
    const mails = smtp.mails.slice(mailsBefore).filter((m) => m.to.includes(`oncall-${kind}@example.com`));
    expect(mails).toHaveLength(1);
    expect(mails[0].raw.replace(/=\r?\n/g, '')).toContain(`${kind} Database down: 20 dependent monitors unreachable`);

    // Still down an interval later: nothing new.
    await step();
    expect(await listIncidents(t.adminCtx, {})).toHaveLength(1);

    // The database is back; five apps are still down: they open their own incidents now.
    board.down.delete(`${kind} Database`);
    for (const d of deps.slice(5)) board.down.delete(d.name);
    await step();
    await step(); // the database confirmed up (a dependent checked before it in this step is still held)
    await step();
    const after = await listIncidents(t.adminCtx, {});
    expect(
      after
        .filter((i) => i.status !== 'resolved')
        .map((i) => i.title)
        .sort(),
    ).toEqual(
      deps
        .slice(0, 5)
        .map((d) => `${d.name} is down`)
        .sort(),
    );
    expect(after.find((i) => i.title === `${kind} Database is down`)?.status).toBe('resolved');
  });

  it('a group is down by its rule, degraded below it, and follows its children within a tick', async () => {
    const t = await seedTenant(services);
    const [a, b, c] = [
      await http(t.adminCtx, `${kind} web-a`),
      await http(t.adminCtx, `${kind} web-b`),
      await http(t.adminCtx, `${kind} web-c`),
    ];
    const group = (name: string, rule: string, n: number | null = null) =>
      createMonitor(t.adminCtx, {
        name,
        type: 'group',
        children: [a.id, b.id, c.id],
        group_rule: rule,
        group_min_down: n,
        interval_seconds: 60,
        is_public: false,
      } as never);
    const any = await group(`${kind} any`, 'any');
    const all = await group(`${kind} all`, 'all');
    const two = await group(`${kind} two`, 'at_least', 2);
    expect(two).toMatchObject({
      children: [a.id, b.id, c.id],
      group_rule: 'at_least',
      group_min_down: 2,
      confirmations: 1,
      locations: ['local'],
    });
    await step(0);
    const statuses = async () => [any, all, two].map(async (g) => (await getMonitor(t.adminCtx, g.id)).status);
    const read = async () => Promise.all(await statuses());
    expect(await read()).toEqual(['operational', 'operational', 'operational']);

    board.down.add(`${kind} web-a`);
    await step();
    await step();
    // web-a confirmed down; the groups are due again at once and follow within the same step's ticks.
    expect(await read()).toEqual(['down', 'degraded', 'degraded']);
    expect((await getMonitor(t.adminCtx, two.id)).last_error).toBe(`1 of 3 down: ${kind} web-a`);

    board.down.add(`${kind} web-b`);
    await step();
    await step();
    expect(await read()).toEqual(['down', 'degraded', 'down']);

    board.down.add(`${kind} web-c`);
    await step();
    await step();
    expect(await read()).toEqual(['down', 'down', 'down']);
  });

  it("refuses another company's monitors, a group containing itself or a group containing it, and cyclic parents", async () => {
    const t = await seedTenant(services);
    const other = await seedTenant(services);
    const theirs = await http(other.adminCtx, `${kind} theirs`);
    const a = await http(t.adminCtx, `${kind} a`);
    await expect(createMonitor(t.adminCtx, { name: 'g', type: 'group', children: [theirs.id] } as never)).rejects.toMatchObject({
      fields: { children: `Children must be monitors of this company (unknown: ${theirs.id})` },
    });
    // Test now reads the children's names and states: another company's are refused there too.
    await expect(testMonitor(t.adminCtx, { name: 'g', type: 'group', children: [theirs.id] } as never)).rejects.toMatchObject({
      fields: { children: `Children must be monitors of this company (unknown: ${theirs.id})` },
    });
    await expect(http(t.adminCtx, `${kind} b`, { parents: [theirs.id] })).rejects.toMatchObject({
      fields: { parents: `Parents must be monitors of this company (unknown: ${theirs.id})` },
    });
    const inner = await createMonitor(t.adminCtx, { name: 'inner', type: 'group', children: [a.id] } as never);
    const outer = await createMonitor(t.adminCtx, { name: 'outer', type: 'group', children: [inner.id] } as never);
    await expect(updateMonitor(t.adminCtx, inner.id, { children: [a.id, inner.id] })).rejects.toMatchObject({
      fields: { children: 'A monitor cannot be its own child' },
    });
    await expect(updateMonitor(t.adminCtx, inner.id, { children: [a.id, outer.id] })).rejects.toMatchObject({
      fields: { children: 'A group cannot contain itself or a group that contains it' },
    });
    await expect(createMonitor(t.adminCtx, { name: 'empty', type: 'group', children: [] } as never)).rejects.toMatchObject({
      fields: { children: 'A group needs at least one child monitor' },
    });
    await expect(
      createMonitor(t.adminCtx, { name: 'n', type: 'group', children: [a.id], group_rule: 'at_least', group_min_down: 3 } as never),
    ).rejects.toMatchObject({
      fields: { group_min_down: 'How many children down make the group down: a whole number from 1 to 1' },
    });
    const b = await http(t.adminCtx, `${kind} b2`, { parents: [a.id] });
    const c = await http(t.adminCtx, `${kind} c2`, { parents: [b.id] });
    await expect(updateMonitor(t.adminCtx, a.id, { parents: [c.id] })).rejects.toMatchObject({
      fields: { parents: 'These parents depend on this monitor already: dependencies cannot form a cycle' },
    });
    await expect(updateMonitor(t.adminCtx, a.id, { parents: [a.id] })).rejects.toMatchObject({
      fields: { parents: 'A monitor cannot be its own parent' },
    });
    expect((await updateMonitor(t.adminCtx, c.id, { parents: null })).parents).toEqual([]);
  });
});
