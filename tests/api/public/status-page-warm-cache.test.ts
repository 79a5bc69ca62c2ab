// The status page keeps the hours and days that no longer change (their timeline blocks, daily
// bars and markup) between rebuilds and makes only the live ones again. A server that has served
// the page all along must show exactly what a server starting cold shows, through checks in the
// live hour, the hour and the day turning, and a new incident and maintenance window. A change
// of the banner and monitor rows alone is spliced into the warm server's last full render
// (lib/status-page-splice.ts): those pages too must be byte for byte the cold server's.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DB_KINDS, newDatabaseLocation } from '../../support/test-db.ts';
import { rawRequest, startTestApp, type TestApp } from '../../support/test-app.ts';
import { seedCompany } from '../../support/fixtures.ts';
import { newId } from '../../../src/server/domain/ids.ts';
import {
  DAY,
  HOUR,
  SEEDED_ADMIN,
  dayOf,
  hourOf,
  seedDaily,
  seedHourly,
  seedIncident,
  seedMaintenance,
  seedMonitor,
  seedScriptedHistory,
  type SeededMonitor,
} from './fixtures.ts';
import { insertRollups, readRollup } from '../../support/rollups.ts';
import { statusSplicesTotal } from '../../../src/server/metrics/platform.ts';

const splices = async () => (await statusSplicesTotal.get()).values[0]?.value ?? 0;

const START = Date.UTC(2026, 10, 22, 22, 41, 5); // 22:41 UTC: the hour and the day turn during the test

describe.each(DB_KINDS)('status page kept between rebuilds on %s', (kind) => {
  let warm: TestApp;
  let location: { file?: string; url?: string };
  let clock = START;
  let company: { id: string; subdomain: string };
  const monitors: SeededMonitor[] = [];

  const get = async (t: TestApp, path: string) => {
    const r = await rawRequest(`${t.baseUrl}${path}`, 'GET', { host: `${company.subdomain}.localhost:${t.port}` });
    expect(r.status, path).toBe(200);
    return r.text;
  };
  /** The page, then the documents made from the same snapshot that show what the page does not (uptime of 24 h, 7 and 30 days). */
  const page = async (t: TestApp) => {
    const html = await get(t, '/');
    const docs = [await get(t, '/api/v2/summary.json')];
    // monitor 2 turns private at the end: its badges are then not found
    for (const m of [monitors[0], monitors[1], monitors[3]])
      for (const w of ['24h', '7d', '30d']) docs.push(await get(t, `/badges/${m.id}/uptime-${w}.json`));
    return `${html}\n${docs.join('\n')}`;
  };
  /** The page (and documents) of the warm server and those of a server started now on the same database and clock. */
  const warmAndCold = async () => {
    const kept = await page(warm);
    const cold = await startTestApp({ db: kind, location, now: () => clock, withPages: true });
    try {
      return { kept, cold: await page(cold) };
    } finally {
      await cold.app.close();
      await cold.services.db.close();
    }
  };
  /** Equal pages; otherwise where they part (a whole page in a failure message is unreadable). */
  const expectSame = ({ kept, cold }: { kept: string; cold: string }) => {
    let i = 0;
    while (i < kept.length && kept[i] === cold[i]) i++;
    expect(kept.slice(i - 120, i + 120), 'the warm page differs from the cold one here').toBe(cold.slice(i - 120, i + 120));
    expect(kept.length).toBe(cold.length);
  };
  const shows = (html: string, text: string) => expect(html.includes(text), text).toBe(true);
  /** A check of monitor i as the engine writes it: the monitor row and its live rollups. */
  const check = async (i: number, failed: boolean) => {
    const db = warm.services.db;
    await db.k
      .updateTable('monitors')
      .set({
        last_checked_at: clock,
        status: failed ? 'down' : 'operational',
        status_since: clock,
        last_http_code: failed ? 503 : 200,
        updated_at: clock,
      })
      .where('id', '=', monitors[i].id)
      .execute();
    for (const [grain, start] of [
      ['hourly', hourOf(clock)],
      ['daily', dayOf(clock)],
    ] as const) {
      const row = await readRollup(db, grain, monitors[i].id, start);
      if (!row) {
        if (grain === 'hourly') await seedHourly(db, monitors[i], start, { checks: 1, failures: failed ? 1 : 0, code: failed ? 503 : 200 });
        else await seedDaily(db, monitors[i], start, { checks: 1, failures: failed ? 1 : 0, code: failed ? 503 : 200 });
        continue;
      }
      await insertRollups(db, grain, {
        ...row,
        [grain === 'hourly' ? 'hour_start' : 'day_start']: start,
        checks: row.checks + 1,
        failures: row.failures + (failed ? 1 : 0),
        last_http_code: failed ? 503 : 200,
      });
    }
  };

  beforeAll(async () => {
    location = await newDatabaseLocation(kind);
    warm = await startTestApp({ db: kind, location, now: () => clock, withPages: true });
    company = await seedCompany(warm.services, { name: 'Acme Corp', subdomain: `kept${kind}` });
    for (let i = 0; i < 4; i++) {
      const m = await seedMonitor(warm.services.db, company.id, clock, { name: `Service ${i}`, lastCheckedAt: clock - 2000 });
      monitors.push(m);
      await seedScriptedHistory(warm.services.db, m, clock);
    }
  });
  afterAll(async () => warm?.close());

  it('shows what a cold server shows through live checks, the hour and the day turning, incidents and maintenance', async () => {
    const first = await warmAndCold();
    expectSame(first);
    const firstDay = /data-first="([^"]+)"/.exec(first.kept)![1];

    // a failing check in the live hour: the current block and today's bar change
    clock += 5 * 60_000;
    await check(1, true);
    let spliced = await splices();
    const failing = await warmAndCold();
    expect(await splices(), 'a check alone is spliced in').toBe(spliced + 1);
    expectSame(failing);
    expect(failing.kept === first.kept).toBe(false);
    shows(failing.kept, '22:00–23:00 UTC · Degraded · HTTP 503');

    // the hour turns: the timeline moves one block
    clock = hourOf(clock) + HOUR + 2 * 60_000;
    await check(1, false);
    spliced = await splices();
    const nextHour = await warmAndCold();
    expect(await splices(), 'the hour turning is spliced in').toBe(spliced + 1);
    expectSame(nextHour);
    shows(nextHour.kept, '23:00–00:00 UTC · Operational · HTTP 200');
    // monitor 0's scripted history (fixtures.ts) in each window, from kept tallies and live rows:
    // 24 h 22 hours of 60 checks, 63 failed; 7 days 7 x 1440, 149 failed; 30 days 30 x 1440, 149 failed
    for (const [w, figure] of [
      ['24h', '95.23%'],
      ['7d', '98.52%'],
      ['30d', '99.66%'],
    ]) {
      const badge = JSON.parse(await get(warm, `/badges/${monitors[0].id}/uptime-${w}.json`)) as { message: string };
      expect(badge.message, w).toBe(figure);
    }

    // the day turns: the 90-day bar moves one day, yesterday's live bar becomes a kept one
    clock = dayOf(clock) + DAY + 3 * 60_000;
    await check(2, true);
    const nextDay = await warmAndCold();
    expectSame(nextDay);
    const movedDay = /data-first="([^"]+)"/.exec(nextDay.kept)![1];
    expect(Date.parse(movedDay) - Date.parse(firstDay)).toBe(DAY);

    // an incident and a maintenance window
    clock += 2 * 60_000;
    const incident = await seedIncident(warm.services.db, company.id, clock, { monitorId: monitors[2].id, title: 'Checkout errors' });
    await seedMaintenance(warm.services.db, company.id, clock, { title: 'Network upgrade', startsAt: clock - HOUR, endsAt: clock + HOUR });
    spliced = await splices();
    const events = await warmAndCold();
    expect(await splices(), 'an incident changes the frame: a full render').toBe(spliced);
    expectSame(events);
    shows(events.kept, 'Checkout errors');
    shows(events.kept, 'Network upgrade');

    // checks that change only monitors (the incidents and windows read before are reused), then
    // an update of the incident and its end
    clock += 2 * 60_000;
    await check(2, false);
    spliced = await splices();
    const recovered = await warmAndCold();
    expect(await splices(), 'a check beside an open incident is spliced in').toBe(spliced + 1);
    expectSame(recovered);
    clock += 2 * 60_000;
    await warm.services.db.k
      .insertInto('incident_updates')
      .values({
        id: newId(),
        incident_id: incident,
        company_id: company.id,
        status: 'resolved',
        message: 'Payments flow again.',
        created_by: SEEDED_ADMIN,
        created_at: clock,
      })
      .execute();
    await warm.services.db.k
      .updateTable('incidents')
      .set({ status: 'resolved', resolved_at: clock, updated_at: clock })
      .where('id', '=', incident)
      .execute();
    const resolved = await warmAndCold();
    expectSame(resolved);
    shows(resolved.kept, 'Payments flow again.');
    expect(resolved.kept.includes('id="active-title"')).toBe(false);

    // a monitor turning private leaves the page, with the incident about it
    clock += 2 * 60_000;
    await warm.services.db.k
      .updateTable('monitors')
      .set({ is_public: false, updated_at: clock })
      .where('id', '=', monitors[2].id)
      .execute();
    const hidden = await warmAndCold();
    expectSame(hidden);
    expect(hidden.kept.includes('Checkout errors')).toBe(false);
  });
});
