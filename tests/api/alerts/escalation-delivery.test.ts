// Escalation, personal delivery and the signed acknowledge link end to end on both databases,
// with a real SMTP sink, a loopback webhook receiver and a loopback Twilio fake, and time driven
// through the services' clock:
// - an unacknowledged incident escalates after the configured minutes (each step exactly once,
//   also with two runners at the same moment) and an acknowledged or resolved one does not;
// - each user's preferences decide what reaches them personally (e-mail, SMS to their phone);
// - the link in the message shows the incident without acknowledging it, acknowledges on POST,
//   and refuses forged, moved, expired and used links.
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Services } from '../../../src/server/domain/context.ts';
import { createChannel } from '../../../src/server/domain/alerts/channels.ts';
import { listDeliveries } from '../../../src/server/domain/alerts/deliveries.ts';
import { putEscalationPolicy, runEscalations } from '../../../src/server/domain/alerts/escalation.ts';
import { acknowledgeByLink, acknowledgeIncident, viewAckLink } from '../../../src/server/domain/incidents/acknowledge.ts';
import { addIncidentUpdate, createIncident, getIncident } from '../../../src/server/domain/incidents/service.ts';
import { putPreferences } from '../../../src/server/domain/notifications/service.ts';
import { publicTenantOrigin } from '../../../src/server/domain/status-page/public-links.ts';
import { withTransaction } from '../../../src/server/db/scope.ts';
import { JOBS } from '../../../src/server/jobs/registry.ts';
import { runDeliveries } from '../../../src/server/notify/outbox/deliver.ts';
import { notifyIn } from '../../../src/server/notify/notify.ts';
import { startWebhookReceiver, type WebhookReceiver } from '../../fixtures/alerts/webhook-receiver.ts';
import {
  startTwilioReceiver,
  TWILIO_ACCOUNT_SID,
  TWILIO_AUTH_TOKEN,
  type TwilioReceiver,
} from '../../fixtures/receivers/twilio-receiver.ts';
import { actorFor, ctxFor, seedCompany, seedUser } from '../../support/fixtures.ts';
import { startSmtpSink, type Mail, type SmtpSink } from '../../support/smtp-sink.ts';
import { DB_KINDS } from '../../support/test-db.ts';
import { engineServices, manualClock, type Clock } from '../engine/support.ts';

const MIN = 60_000;
const unfold = (m: Mail) => m.raw.replace(/=\r?\n/g, '');
const ackLinkIn = (text: string) => /(?:Acknowledge: |Ack: )(http:\/\/\S+\/ack\/[A-Za-z0-9_.-]+)/.exec(text)?.[1] ?? null;

describe.each(DB_KINDS)('escalation, personal delivery and acknowledge links on %s', (kind) => {
  let services: Services;
  let clock: Clock;
  let smtp: SmtpSink;
  let hooks: WebhookReceiver;
  let twilio: TwilioReceiver;
  let company: { id: string; subdomain: string };
  let host = '';
  let admin: Awaited<ReturnType<typeof seedUser>>;
  let onCall: Awaited<ReturnType<typeof seedUser>>;
  let adminCtx: ReturnType<typeof ctxFor>;
  let escalationHook = '';

  const deliver = () => runDeliveries(services, { holder: 'test', random: () => 0.5 });
  const hookEvents = (path: string) => hooks.received.filter((r) => r.path === path).map((r) => JSON.parse(r.body).type as string);
  const mailsTo = (address: string) => smtp.mails.filter((m) => m.to.includes(address));

  beforeAll(async () => {
    smtp = await startSmtpSink();
    hooks = await startWebhookReceiver();
    twilio = await startTwilioReceiver();
    clock = manualClock(Date.UTC(2027, 3, 1, 8, 0, 0));
    services = await engineServices(
      kind,
      {
        SMTP_URL: smtp.url,
        TWILIO_API_URL: twilio.origin,
        TWILIO_ACCOUNT_SID,
        TWILIO_AUTH_TOKEN,
        TWILIO_FROM: '+15005550006',
      },
      clock.now,
    );
    company = await seedCompany(services, { plan: 'enterprise', name: 'Acme' });
    host = `${company.subdomain}.${services.config.productDomain}`;
    admin = await seedUser(services, { userType: 2, companyId: company.id, fullName: 'Ada Admin', email: 'ada@acme.example' });
    onCall = await seedUser(services, { userType: 2, companyId: company.id, fullName: 'Otto Oncall', email: 'otto@acme.example' });
    adminCtx = ctxFor(services, actorFor(admin));
    // Ada reads alerts in the console only; Otto wants e-mail and SMS.
    await putPreferences(adminCtx, { email_enabled: false });
    await putPreferences(ctxFor(services, actorFor(onCall)), { sms_enabled: true, phone: '+4917012345678' });
    const hook = await createChannel(adminCtx, {
      name: 'Escalation hook',
      type: 'webhook',
      config: { url: hooks.url('/escalation') },
      events: ['incident.opened'], // the policy names it: its event filter does not apply to escalation
    });
    escalationHook = hook.id;
    await putEscalationPolicy(adminCtx, {
      steps: [
        { after_minutes: 0, channel_ids: [hook.id], user_ids: [] },
        { after_minutes: 10, channel_ids: [], user_ids: [onCall.id] },
      ],
    });
  });
  afterAll(async () => {
    await Promise.all([smtp?.close(), hooks?.close(), twilio?.close()]);
    for (const h of services?.onShutdown ?? []) await h();
    await services?.db.close();
  });
  beforeEach(() => {
    smtp.mails.length = 0;
    hooks.received.length = 0;
    twilio.exchanges.length = 0;
    twilio.messages.length = 0;
  });

  const open = (title: string) => createIncident(adminCtx, { title, severity: 'high', message: 'Investigating.' });

  it('runs as a timed job', () => {
    expect(JOBS.map((j) => j.name)).toContain('escalation');
  });

  it('an unacknowledged incident escalates after the configured minutes, each step once; an acknowledged one does not', async () => {
    const ignored = await open('Payments failing');
    clock.advance(1);
    const acknowledged = await open('Search slow');

    // Step 1 (at once): the hook, for both.
    expect(await runEscalations(services, clock.now())).toBe(2);
    await deliver();
    expect(hookEvents('/escalation')).toEqual(['incident.escalated', 'incident.escalated']);

    clock.advance(5 * MIN);
    await acknowledgeIncident(adminCtx, acknowledged.id);
    clock.advance(5 * MIN - 2);
    expect(await runEscalations(services, clock.now())).toBe(0); // 9:59.999 after the first: not yet

    // Step 2 (10 minutes): two runners at the same moment send it once, for the ignored incident only.
    clock.advance(1);
    const [a, b] = await Promise.all([runEscalations(services, clock.now()), runEscalations(services, clock.now())]);
    expect(a + b).toBe(1);
    await deliver();
    // Otto also got the acknowledgement of "Search slow" (he wants incident news by e-mail).
    const toOtto = mailsTo('otto@acme.example').filter((m) => unfold(m).includes('Not acknowledged'));
    expect(toOtto).toHaveLength(1);
    expect(unfold(toOtto[0])).toContain('Not acknowledged: Payments failing');
    expect(unfold(toOtto[0])).not.toContain('Search slow');
    const sms = twilio.messages.filter((m) => m.body.includes('Not acknowledged'));
    expect(sms).toHaveLength(1);
    expect(sms[0]).toMatchObject({ to: '+4917012345678', from: '+15005550006' });
    expect(sms[0].body).toContain('Payments failing');
    expect(twilio.refusals()).toEqual([]);
    // Ada switched e-mail off: nothing reached her.
    expect(mailsTo('ada@acme.example')).toHaveLength(0);

    // Nothing more, ever, for the steps already sent.
    clock.advance(60 * MIN);
    expect(await runEscalations(services, clock.now())).toBe(0);
    // Receipts name the person and the target.
    const receipts = await listDeliveries(adminCtx, {});
    const escalated = receipts.filter((r) => r.user_id === onCall.id && r.event === 'incident.escalated');
    expect(escalated.map((r) => [r.channel_name, r.state]).sort()).toEqual([
      ['Personal SMS to Otto Oncall', 'delivered'],
      ['Personal e-mail to Otto Oncall', 'delivered'],
    ]);
    expect(receipts.filter((r) => r.channel_id === escalationHook).every((r) => r.state === 'delivered')).toBe(true);
    expect(ignored.id).not.toBe(acknowledged.id);
  });

  it('a resolved incident does not escalate', async () => {
    const i = await open('Short blip');
    await addIncidentUpdate(adminCtx, i.id, { status: 'resolved', message: 'Gone.' });
    clock.advance(30 * MIN);
    expect(await runEscalations(services, clock.now())).toBe(0);
  });

  it('preferences decide personal delivery: e-mail off gets no e-mail, monitor incidents off gets nothing, SMS to the phone, a signed personal webhook', async () => {
    const quiet = await seedUser(services, { userType: 3, companyId: company.id, email: 'quiet@acme.example' });
    await putPreferences(ctxFor(services, actorFor(quiet)), {
      monitor_incidents: false,
      sms_enabled: true,
      phone: '+4917099999999',
      webhook_enabled: true,
      webhook_url: hooks.url('/quiet'),
    });
    const hooked = await seedUser(services, { userType: 3, companyId: company.id, email: 'hooked@acme.example', fullName: 'Hanna Hook' });
    const hookedCtx = ctxFor(services, actorFor(hooked));
    const set = await putPreferences(hookedCtx, { email_enabled: false, webhook_enabled: true, webhook_url: hooks.url('/hanna') });
    expect(set.webhook_secret).toMatch(/^whsec_/);
    // The same URL again keeps its secret (none is shown); reading never shows it.
    expect((await putPreferences(hookedCtx, { webhook_url: hooks.url('/hanna') })).webhook_secret).toBeUndefined();
    const i = await open('Login broken');
    await withTransaction(services.db, (tx) =>
      notifyIn(tx, clock.now())(company.id, {
        type: 'monitor_incident',
        severity: 'critical',
        title: 'Login is down',
        message: 'Login is down.',
        details: null,
        metadata: { incident_id: i.id, event: 'opened' },
        actionUrl: `/monitors/incidents/${i.id}`,
        dedupeKey: `test:${i.id}:opened`,
      }),
    );
    await deliver();
    expect(mailsTo('otto@acme.example')).toHaveLength(1);
    expect(mailsTo('ada@acme.example')).toHaveLength(0);
    expect(mailsTo('quiet@acme.example')).toHaveLength(0);
    expect(twilio.messages.map((m) => m.to)).toEqual(['+4917012345678']);
    expect(hooks.received.filter((r) => r.path === '/quiet')).toHaveLength(0);
    const personal = hooks.received.filter((r) => r.path === '/hanna');
    expect(personal).toHaveLength(1);
    const payload = new Webhook(set.webhook_secret!).verify(personal[0].body, personal[0].headers as Record<string, string>) as {
      type: string;
      data: { title: string; delivery_id: string };
    };
    expect(payload).toMatchObject({ type: 'incident.opened', data: { title: 'Login is down' } });
    expect(personal[0].headers['webhook-id']).toBe(payload.data.delivery_id);
    expect(mailsTo('hooked@acme.example')).toHaveLength(0);
    const receipt = (await listDeliveries(adminCtx, {})).find((r) => r.id === payload.data.delivery_id);
    expect(receipt).toMatchObject({
      channel_name: 'Personal webhook to Hanna Hook',
      channel_type: 'webhook',
      user_id: hooked.id,
      state: 'delivered',
    });
  });

  it('the link in the message shows the incident, acknowledges only on POST, and refuses forged, moved, expired and used links', async () => {
    const i = await open('Checkout down');
    await runEscalations(services, clock.now());
    clock.advance(10 * MIN);
    await runEscalations(services, clock.now());
    await deliver();
    const about = (title: string) =>
      mailsTo('otto@acme.example').find((m) => unfold(m).includes(`Subject: [Acme] Not acknowledged: ${title}`))!;
    const link = ackLinkIn(unfold(about('Checkout down')));
    expect(link).not.toBeNull();
    expect(link!.startsWith(`${publicTenantOrigin(services.config, company.subdomain)}/ack/`)).toBe(true);
    expect(ackLinkIn(twilio.messages.find((m) => m.body.includes('Checkout down'))!.body)).not.toBeNull();
    const token = link!.split('/ack/')[1];

    // Opening it (a mail scanner, or the person) shows the incident and acknowledges nothing.
    const seen = await viewAckLink(services, token, host);
    expect(seen).toMatchObject({ state: 'ready', company: 'Acme', incident: { title: 'Checkout down', acknowledgedAt: null } });
    expect(JSON.stringify(seen)).not.toContain('otto@');
    expect((await getIncident(adminCtx, i.id)).acknowledged_at).toBeNull();

    // Forged (signature changed) and moved (another company's host) links show nothing.
    const forged = `${token.slice(0, -2)}${token.endsWith('AA') ? 'BB' : 'AA'}`;
    expect(await acknowledgeByLink(services, forged, host)).toEqual({ state: 'invalid' });
    expect(await viewAckLink(services, token, `other.${services.config.productDomain}`)).toEqual({ state: 'invalid' });
    expect(await viewAckLink(services, 'not-a-token', host)).toEqual({ state: 'invalid' });

    const done = await acknowledgeByLink(services, token, host);
    expect(done).toMatchObject({ state: 'acknowledged', incident: { acknowledgedAt: new Date(clock.now()).toISOString() } });
    const after = await getIncident(adminCtx, i.id);
    expect(after.acknowledged_by).toEqual({ id: onCall.id, name: 'Otto Oncall' });
    expect(after.acknowledged_via).toBe('a personal e-mail');
    // Used: a second POST changes nothing and says so.
    expect((await acknowledgeByLink(services, token, host)).state).toBe('acknowledged');
    expect((await getIncident(adminCtx, i.id)).acknowledged_at).toBe(after.acknowledged_at);

    // Expired: a link to another open incident, 24 h later, no longer acknowledges.
    const later = await open('Images missing');
    await runEscalations(services, clock.now());
    clock.advance(10 * MIN);
    smtp.mails.length = 0;
    await runEscalations(services, clock.now());
    await deliver();
    const old = ackLinkIn(unfold(about('Images missing')))!.split('/ack/')[1];
    clock.advance(24 * 60 * MIN);
    expect((await acknowledgeByLink(services, old, host)).state).toBe('expired');
    expect((await getIncident(adminCtx, later.id)).acknowledged_at).toBeNull();
  });
});
