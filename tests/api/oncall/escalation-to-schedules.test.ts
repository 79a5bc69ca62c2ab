// Escalation to on-call schedules on both databases, through the real server and a real SMTP
// sink, with time driven through the services' clock: a step naming a schedule pages whoever is
// on call in it when the step falls due (the next step, after a hand-off, the next person; a late
// run still pages who was on call at the due time), the policy repeats its steps and alerts the
// team at the last step, and the incident's pages show who was reached, how, and who
// acknowledged when.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runEscalations } from '../../../src/server/domain/alerts/escalation.ts';
import { createIncident } from '../../../src/server/domain/incidents/service.ts';
import { runDeliveries } from '../../../src/server/notify/outbox/deliver.ts';
import { actorFor, ctxFor, seedCompany, seedUser, signIn } from '../../support/fixtures.ts';
import { startSmtpSink, type SmtpSink } from '../../support/smtp-sink.ts';
import { ApiClient, startTestApp, type TestApp } from '../../support/test-app.ts';
import { DB_KINDS } from '../../support/test-db.ts';

const MIN = 60_000;
const T0 = Date.UTC(2027, 3, 1, 8, 50); // Ann is on call 08:00-09:00 UTC, Bob 09:00-10:00, Ann 10:00-11:00 ...

describe.each(DB_KINDS)('escalation to schedules on %s', (kind) => {
  let t: TestApp;
  let smtp: SmtpSink;
  let now = T0;
  let admin: ApiClient;
  let ann: Awaited<ReturnType<typeof seedUser>>;
  let scheduleId = '';
  const escalatedMailsTo = (address: string) => smtp.mails.filter((m) => m.to.includes(address) && m.raw.includes('Not acknowledged'));
  const pagesOf = async (id: string) =>
    (await admin.get(`/api/v1/incidents/${id}/pages`)).body.map(
      (p: { round: number; step: number; user_name: string; reason: string; channel: string; schedule_name: string | null }) =>
        [p.round, p.step, p.user_name, p.reason, p.channel, p.schedule_name].join(' '),
    );

  beforeAll(async () => {
    smtp = await startSmtpSink();
    t = await startTestApp({ db: kind, now: () => now, env: { SMTP_URL: smtp.url } });
    const acme = await seedCompany(t.services, { name: 'Acme', plan: 'enterprise' });
    admin = new ApiClient(t.baseUrl, `${acme.subdomain}.${t.config.productDomain}`);
    ann = await seedUser(t.services, { userType: 2, companyId: acme.id, fullName: 'Ann', email: 'ann@acme.example' });
    await signIn(admin, ann);
    const bob = await seedUser(t.services, { userType: 3, companyId: acme.id, fullName: 'Bob', email: 'bob@acme.example' });
    await seedUser(t.services, { userType: 3, companyId: acme.id, fullName: 'Cy', email: 'cy@acme.example' });
    const schedule = await admin.post('/api/v1/schedules', {
      name: 'Hourly',
      time_zone: 'UTC',
      layers: [{ user_ids: [ann.id, bob.id], rotation_start: '2027-04-01T08:00', handoff: 'custom', handoff_hours: 1 }],
    });
    scheduleId = schedule.body.id;
    const policy = await admin.put('/api/v1/escalation-policy', {
      steps: [
        { after_minutes: 0, channel_ids: [], user_ids: [], schedule_ids: [scheduleId] },
        { after_minutes: 20, channel_ids: [], user_ids: [], schedule_ids: [scheduleId] },
      ],
      repeat: 1,
    });
    expect(policy.status).toBe(200);
    expect(policy.body).toMatchObject({
      repeat: 1,
      notify_team_at_last_step: false,
      steps: [{ schedule_ids: [scheduleId] }, { schedule_ids: [scheduleId] }],
    });
  });
  afterAll(async () => {
    await t?.close();
    await smtp?.close();
  });

  const deliver = () => runDeliveries(t.services, { holder: 'test', random: () => 0.5 });
  // Signs in again at the new time: the session's access token lives minutes, the test moves hours.
  const setNow = async (ms: number) => {
    now = ms;
    await signIn(admin, ann);
  };
  const open = (title: string) => createIncident(ctxFor(t.services, actorFor(ann)), { title, severity: 'high', message: 'Investigating.' });

  it('pages the person on call at each step, the next person after a hand-off, and repeats the steps', async () => {
    await setNow(T0);
    const incident = await open('Checkout down');
    expect(await runEscalations(t.services, now)).toBe(1);
    await deliver();
    expect(escalatedMailsTo('ann@acme.example')).toHaveLength(1);
    expect(escalatedMailsTo('bob@acme.example')).toHaveLength(0);

    // 09:10: the second step, after the 09:00 hand-off, pages Bob.
    await setNow(T0 + 20 * MIN);
    expect(await runEscalations(t.services, now)).toBe(1);
    await deliver();
    expect(escalatedMailsTo('bob@acme.example')).toHaveLength(1);

    // The repeat waits as long as before the last step (20 minutes): 09:30, Bob still on call.
    await setNow(T0 + 40 * MIN - 1);
    expect(await runEscalations(t.services, now)).toBe(0);
    await setNow(T0 + 40 * MIN);
    expect(await runEscalations(t.services, now)).toBe(1);
    expect(await pagesOf(incident.id)).toEqual([
      '0 0 Ann schedule email Hourly',
      '0 1 Bob schedule email Hourly',
      '1 0 Bob schedule email Hourly',
    ]);

    // Ann acknowledges: nothing more is sent, and every page shows who acknowledged and when.
    await setNow(T0 + 45 * MIN);
    expect((await admin.post(`/api/v1/incidents/${incident.id}/acknowledge`)).status).toBe(200);
    await setNow(T0 + 120 * MIN);
    expect(await runEscalations(t.services, now)).toBe(0);
    const pages = (await admin.get(`/api/v1/incidents/${incident.id}/pages`)).body;
    expect(pages).toHaveLength(3);
    for (const p of pages)
      expect(p).toMatchObject({
        acknowledged_at: new Date(T0 + 45 * MIN).toISOString(),
        acknowledged_by: { id: ann.id, name: 'Ann' },
        schedule_id: scheduleId,
      });
  });

  it('pages whoever was on call when the step fell due, even when the run is late', async () => {
    await setNow(T0 + 5 * MIN); // 08:55, Ann on call
    const incident = await open('Search slow');
    // Nobody runs the job until 10:05, when Ann is on call again: the four due steps page who was on call at each due time.
    await setNow(T0 + 75 * MIN);
    expect(await runEscalations(t.services, now)).toBe(4);
    expect(await pagesOf(incident.id)).toEqual([
      '0 0 Ann schedule email Hourly', // 08:55
      '0 1 Bob schedule email Hourly', // 09:15
      '1 0 Bob schedule email Hourly', // 09:35
      '1 1 Bob schedule email Hourly', // 09:55
    ]);
  });

  it('alerts the whole team at the last step when the policy says so', async () => {
    await admin.put('/api/v1/escalation-policy', {
      steps: [{ after_minutes: 0, channel_ids: [], user_ids: [], schedule_ids: [scheduleId] }],
      notify_team_at_last_step: true,
    });
    // A client that sends only the steps keeps the switches.
    const kept = await admin.put('/api/v1/escalation-policy', {
      steps: [{ after_minutes: 0, channel_ids: [], user_ids: [], schedule_ids: [scheduleId] }],
    });
    expect(kept.body).toMatchObject({ repeat: 1, notify_team_at_last_step: true });
    await setNow(T0 + 15 * MIN); // 09:05: Bob's hour
    const incident = await open('Mail delayed');
    expect(await runEscalations(t.services, now)).toBe(1);
    expect(await pagesOf(incident.id)).toEqual(['0 0 Ann team email ', '0 0 Bob schedule email Hourly', '0 0 Cy team email ']);
  });

  it('refuses a schedule of nobody or another company in a step, and a repeat over 9', async () => {
    const bad = await admin.put('/api/v1/escalation-policy', {
      steps: [{ after_minutes: 0, channel_ids: [], user_ids: [], schedule_ids: ['nope'] }],
    });
    expect(bad.status).toBe(400);
    expect(bad.body.errors['steps.0.schedule_ids']).toMatch(/schedule not found/);
    expect((await admin.put('/api/v1/escalation-policy', { steps: [], repeat: 10 })).status).toBe(400);
    // A deleted schedule is no longer named by the policy.
    await admin.put('/api/v1/escalation-policy', {
      steps: [{ after_minutes: 0, channel_ids: [], user_ids: [], schedule_ids: [scheduleId] }],
    });
    await admin.delete(`/api/v1/schedules/${scheduleId}`);
    expect((await admin.get('/api/v1/escalation-policy')).body.steps[0].schedule_ids).toBeUndefined();
  });
});
