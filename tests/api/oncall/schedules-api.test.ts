// On-call schedules through the real HTTP server on both databases: company admins write
// (audited), company users read, another company's schedule is 404, layers may name only the
// company's people, bad fields get per-field messages; overrides win over the rotation; shifts per
// schedule and per person; the private iCalendar feeds parsed with a real parser (ical.js), and a
// revoked or replaced address answers 404.
import ICAL from 'ical.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedCompany, seedUser, signIn } from '../../support/fixtures.ts';
import { ApiClient, startTestApp, type TestApp } from '../../support/test-app.ts';
import { DB_KINDS } from '../../support/test-db.ts';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
// Monday 2 November 2026, 13:00 in Berlin (UTC+1 since 25 October)
const START = Date.UTC(2026, 10, 2, 12);

function eventsOf(text: string) {
  const cal = new ICAL.Component(ICAL.parse(text));
  return cal.getAllSubcomponents('vevent').map((v) => {
    const e = new ICAL.Event(v);
    return {
      uid: e.uid,
      summary: e.summary,
      start: e.startDate.toJSDate().getTime(),
      end: e.endDate.toJSDate().getTime(),
      stamp: v.getFirstPropertyValue('dtstamp') !== null,
    };
  });
}

describe.each(DB_KINDS)('on-call schedules API on %s', (kind) => {
  let t: TestApp;
  let now = START;
  let acme: { id: string; subdomain: string };
  let admin: ApiClient;
  let viewer: ApiClient;
  let otherAdmin: ApiClient;
  let ann: { id: string };
  let bob: { id: string };
  let cy: { id: string };
  let stranger: { id: string };
  let scheduleId = '';
  const berlinWeekly = (userIds: string[]) => ({
    name: 'Primary',
    time_zone: 'Europe/Berlin',
    layers: [{ user_ids: userIds, rotation_start: '2026-11-02T09:00', handoff: 'weekly' }],
  });

  beforeAll(async () => {
    t = await startTestApp({ db: kind, now: () => now });
    acme = await seedCompany(t.services, { name: 'Acme' });
    const globex = await seedCompany(t.services, { name: 'Globex' });
    const on = (c: { subdomain: string }) => new ApiClient(t.baseUrl, `${c.subdomain}.${t.config.productDomain}`);
    admin = on(acme);
    viewer = on(acme);
    otherAdmin = on(globex);
    const annUser = await seedUser(t.services, { userType: 2, companyId: acme.id, fullName: 'Ann Admin' });
    ann = annUser;
    await signIn(admin, annUser);
    const bobUser = await seedUser(t.services, { userType: 3, companyId: acme.id, fullName: 'Bob Viewer' });
    bob = bobUser;
    await signIn(viewer, bobUser);
    cy = await seedUser(t.services, { userType: 3, companyId: acme.id, fullName: 'Cy Cover' });
    const globexAdmin = await seedUser(t.services, { userType: 2, companyId: globex.id, fullName: 'Gus Globex' });
    stranger = globexAdmin;
    await signIn(otherAdmin, globexAdmin);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('an admin creates a schedule; its people read who is on call now and next; the write is audited', async () => {
    const created = await admin.post('/api/v1/schedules', berlinWeekly([ann.id, bob.id]));
    expect(created.status).toBe(201);
    scheduleId = created.body.id;
    expect(created.body.layers).toEqual([
      {
        name: 'Layer 1',
        user_ids: [ann.id, bob.id],
        rotation_start: '2026-11-02T09:00',
        handoff: 'weekly',
        handoff_hours: null,
        restrictions: [],
      },
    ]);
    const list = await viewer.get('/api/v1/schedules');
    expect(list.status).toBe(200);
    expect(list.body).toHaveLength(1);
    // The turn started at 09:00 Berlin (08:00 UTC) and hands off a week later.
    expect(list.body[0].on_call_now).toMatchObject({
      user_name: 'Ann Admin',
      start: '2026-11-02T08:00:00.000Z',
      end: '2026-11-09T08:00:00.000Z',
    });
    expect(list.body[0].on_call_next).toMatchObject({ user_name: 'Bob Viewer', start: '2026-11-09T08:00:00.000Z' });
    const audit = await t.services.db.k
      .selectFrom('audit_events')
      .selectAll()
      .where('event', '=', 'settings_update')
      .where('tenant_id', '=', acme.id)
      .execute();
    expect(audit.map((a) => JSON.parse(a.details!).action)).toContain('schedule_create');
  });

  it('viewers read but do not write; another company sees 404 and cannot name its people', async () => {
    expect((await viewer.post('/api/v1/schedules', berlinWeekly([bob.id]))).status).toBe(403);
    expect((await viewer.put(`/api/v1/schedules/${scheduleId}`, berlinWeekly([bob.id]))).status).toBe(403);
    expect((await viewer.get(`/api/v1/schedules/${scheduleId}`)).status).toBe(200);
    for (const r of [
      await otherAdmin.get(`/api/v1/schedules/${scheduleId}`),
      await otherAdmin.put(`/api/v1/schedules/${scheduleId}`, berlinWeekly([stranger.id])),
      await otherAdmin.delete(`/api/v1/schedules/${scheduleId}`),
      await otherAdmin.get(`/api/v1/schedules/${scheduleId}/on-call`),
      await otherAdmin.post(`/api/v1/schedules/${scheduleId}/calendar-feed`),
    ])
      expect(r.status).toBe(404);
    expect((await otherAdmin.get('/api/v1/schedules')).body).toEqual([]);
    const foreign = await admin.post('/api/v1/schedules', berlinWeekly([ann.id, stranger.id]));
    expect(foreign.status).toBe(400);
    expect(foreign.body.errors['layers.0.user_ids']).toMatch(/user not found/);
  });

  it('refuses bad fields with a message for each', async () => {
    const field = async (body: unknown) => (await admin.post('/api/v1/schedules', body)).body.errors;
    expect(await field({ ...berlinWeekly([ann.id]), time_zone: 'Mars/Olympus' })).toMatchObject({
      time_zone: expect.stringMatching(/Not a time zone/),
    });
    expect(await field({ ...berlinWeekly([ann.id]), name: '  ' })).toMatchObject({ name: expect.any(String) });
    const layer = { user_ids: [ann.id], rotation_start: '2026-11-02T09:00', handoff: 'custom' };
    expect(await field({ ...berlinWeekly([]), layers: [layer] })).toMatchObject({
      'layers.0.handoff_hours': expect.stringMatching(/hours/),
    });
    const restricted = { ...layer, handoff: 'daily', restrictions: [{ days: ['mon'], start: '18:00', end: '09:00' }] };
    expect(await field({ ...berlinWeekly([]), layers: [restricted] })).toMatchObject({
      'layers.0.restrictions.0.end': expect.stringMatching(/end after/),
    });
    const badDate = await admin.post('/api/v1/schedules', {
      ...berlinWeekly([]),
      layers: [{ ...layer, handoff: 'daily', rotation_start: '2026-13-40T09:00' }],
    });
    expect(badDate.status).toBe(400);
    expect((await admin.post('/api/v1/schedules', { ...berlinWeekly([ann.id]), colour: 'red' })).status).toBe(400);
  });

  it('an override wins over the rotation, and removing it gives the turn back', async () => {
    const override = await admin.post(`/api/v1/schedules/${scheduleId}/overrides`, {
      user_id: cy.id,
      start: new Date(START + HOUR).toISOString(),
      end: new Date(START + 5 * HOUR).toISOString(),
    });
    expect(override.status).toBe(201);
    const at = (ms: number) => admin.get(`/api/v1/schedules/${scheduleId}/on-call?at=${encodeURIComponent(new Date(ms).toISOString())}`);
    expect((await at(START + 2 * HOUR)).body.current).toMatchObject({ user_name: 'Cy Cover', override_id: override.body.overrides[0].id });
    const before = (await at(START)).body;
    expect(before.current.user_name).toBe('Ann Admin');
    expect(before.next).toMatchObject({ user_name: 'Cy Cover', start: new Date(START + HOUR).toISOString() });
    // Another company's user cannot cover; an override must end after it starts.
    const foreign = await admin.post(`/api/v1/schedules/${scheduleId}/overrides`, {
      user_id: stranger.id,
      start: new Date(START).toISOString(),
      end: new Date(START + HOUR).toISOString(),
    });
    expect(foreign.body.errors.user_id).toMatch(/not found/);
    const reversed = await admin.post(`/api/v1/schedules/${scheduleId}/overrides`, {
      user_id: cy.id,
      start: new Date(START + HOUR).toISOString(),
      end: new Date(START).toISOString(),
    });
    expect(reversed.body.errors.end).toMatch(/end after/);
    expect((await admin.delete(`/api/v1/schedules/${scheduleId}/overrides/${override.body.overrides[0].id}`)).status).toBe(204);
    expect((await at(START + 2 * HOUR)).body.current.user_name).toBe('Ann Admin');
    expect((await admin.delete(`/api/v1/schedules/${scheduleId}/overrides/${override.body.overrides[0].id}`)).status).toBe(404);
  });

  it("lists a schedule's shifts and each person's own", async () => {
    const from = new Date(START).toISOString();
    const to = new Date(START + 21 * DAY).toISOString();
    const shifts = await viewer.get(`/api/v1/schedules/${scheduleId}/shifts?from=${from}&to=${to}`);
    expect(shifts.body.shifts.map((s: { user_name: string; start: string }) => [s.user_name, s.start])).toEqual([
      ['Ann Admin', from],
      ['Bob Viewer', '2026-11-09T08:00:00.000Z'],
      ['Ann Admin', '2026-11-16T08:00:00.000Z'],
      ['Bob Viewer', '2026-11-23T08:00:00.000Z'],
    ]);
    const mine = await viewer.get(`/api/v1/account/shifts?from=${from}&to=${to}`);
    expect(mine.body.shifts.map((s: { schedule_name: string; start: string; end: string }) => [s.schedule_name, s.start, s.end])).toEqual([
      ['Primary', '2026-11-09T08:00:00.000Z', '2026-11-16T08:00:00.000Z'],
      ['Primary', '2026-11-23T08:00:00.000Z', to],
    ]);
    expect((await viewer.get(`/api/v1/account/shifts?from=${to}&to=${from}`)).body.errors.to).toMatch(/after from/);
    const year = new Date(START + 200 * DAY).toISOString();
    expect((await viewer.get(`/api/v1/schedules/${scheduleId}/shifts?from=${from}&to=${year}`)).body.errors.to).toMatch(/100 days/);
    expect((await viewer.get(`/api/v1/schedules/${scheduleId}/on-call?at=yesterday`)).status).toBe(400);
  });

  it('serves private calendar feeds that a real parser reads; a replaced or revoked address is 404', async () => {
    const feed = await admin.post(`/api/v1/schedules/${scheduleId}/calendar-feed`);
    expect(feed.status).toBe(201);
    const path = new URL(feed.body.url).pathname;
    const anonymous = t.client();
    const first = await anonymous.get(path);
    expect(first.status).toBe(200);
    expect(first.headers.get('content-type')).toMatch(/^text\/calendar/);
    const events = eventsOf(first.text);
    // From a week back to 60 days ahead: this week's Ann (from 2 Nov), then alternating weekly turns.
    expect(events[0]).toMatchObject({
      summary: 'Ann Admin on call (Primary)',
      start: Date.UTC(2026, 10, 2, 8),
      end: Date.UTC(2026, 10, 9, 8),
      stamp: true,
    });
    expect(events[1]).toMatchObject({ summary: 'Bob Viewer on call (Primary)', start: Date.UTC(2026, 10, 9, 8) });
    expect(events.at(-1)!.end).toBe(START + 60 * DAY);
    // UIDs stay the same on the next refresh, a day later.
    now = START + DAY;
    const again = eventsOf((await anonymous.get(path)).text);
    expect(again.slice(0, 3).map((e) => e.uid)).toEqual(events.slice(0, 3).map((e) => e.uid));
    now = START;
    // The person's own feed: Bob sees his turns in every schedule.
    const mine = await viewer.post('/api/v1/account/calendar-feed');
    const myPath = new URL(mine.body.url).pathname;
    const myEvents = eventsOf((await anonymous.get(myPath)).text);
    expect(myEvents.length).toBeGreaterThan(2);
    expect(myEvents.every((e) => e.summary === 'On call: Primary')).toBe(true);
    expect(myEvents[0].start).toBe(Date.UTC(2026, 10, 9, 8));
    // A new address replaces the old; revoking ends it.
    const replaced = await admin.post(`/api/v1/schedules/${scheduleId}/calendar-feed`);
    expect((await anonymous.get(path)).status).toBe(404);
    expect((await anonymous.get(new URL(replaced.body.url).pathname)).status).toBe(200);
    expect((await admin.delete(`/api/v1/schedules/${scheduleId}/calendar-feed`)).status).toBe(204);
    expect((await anonymous.get(new URL(replaced.body.url).pathname)).status).toBe(404);
    expect((await viewer.delete('/api/v1/account/calendar-feed')).status).toBe(204);
    expect((await anonymous.get(myPath)).status).toBe(404);
    expect((await anonymous.get('/api/v1/calendars/swc_nothing')).status).toBe(404);
    // Only the token's hash is stored.
    const stored = await t.services.db.k.selectFrom('calendar_feeds').select('token_hash').execute();
    expect(stored.every((r) => !r.token_hash.startsWith('swc_'))).toBe(true);
  });

  it('an admin replaces and deletes a schedule', async () => {
    const put = await admin.put(`/api/v1/schedules/${scheduleId}`, { ...berlinWeekly([bob.id]), name: 'Renamed' });
    expect(put.status).toBe(200);
    expect(put.body).toMatchObject({ name: 'Renamed', on_call_now: { user_name: 'Bob Viewer' } });
    expect((await admin.delete(`/api/v1/schedules/${scheduleId}`)).status).toBe(204);
    expect((await viewer.get(`/api/v1/schedules/${scheduleId}`)).status).toBe(404);
  });
});
