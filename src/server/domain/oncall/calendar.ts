// Private iCalendar feeds (RFC 5545) of a schedule or of a person's shifts in every schedule of
// their company, for Google Calendar, Outlook and Apple Calendar to subscribe to. The address
// carries a random token, the only credential (calendar apps cannot sign in); only its SHA-256 is
// stored, and issuing a new address or revoking deletes the old row, so the old address is 404.
// Generated with ical-generator (folding, escaping and the VCALENDAR frame are its job).
import { createHash, randomBytes } from 'node:crypto';
import ical from 'ical-generator';
import { calendarFeedsRepo, type FeedOwner } from '../../db/repositories/calendar-feeds-repo.ts';
import { schedulesRepo } from '../../db/repositories/schedules-repo.ts';
import { withTransaction } from '../../db/scope.ts';
import { auditFromCtx } from '../audit/record.ts';
import { companyScope, requireActor, requirePermission } from '../authz.ts';
import type { Ctx, Services } from '../context.ts';
import { DomainError, notFound } from '../errors.ts';
import { newId, toIso } from '../ids.ts';
import { ON_CALL_HORIZON_MS } from './resolve.ts';
import { companyShifts } from './schedules.ts';

const DAY_MS = 86_400_000;
export const FEED_DAYS_BACK = 7;
export const FEED_DAYS_AHEAD = 60;

const hashOf = (token: string) => createHash('sha256').update(token).digest('hex');

function feedUrl(s: Services, token: string): string {
  const c = s.config;
  // As the push URL: behind a proxy on 443 over https; over plain http the server's own port.
  const port = c.publicScheme === 'http' && c.port && c.port !== 80 ? `:${c.port}` : '';
  return `${c.publicScheme}://${c.productDomain}${port}/api/v1/calendars/${token}`;
}

async function issue(ctx: Ctx, companyId: string, owner: FeedOwner) {
  const s = ctx.services;
  const token = `swc_${randomBytes(24).toString('base64url')}`;
  const now = s.now();
  await withTransaction(s.db, async (tx) => {
    await calendarFeedsRepo(tx).replace(owner, {
      id: newId(),
      company_id: companyId,
      schedule_id: 'scheduleId' in owner ? owner.scheduleId : null,
      user_id: 'userId' in owner ? owner.userId : null,
      token_hash: hashOf(token),
      created_at: now,
    });
    await auditFromCtx(tx, ctx, 'settings_update', { area: 'on_call', action: 'calendar_feed_create', ...owner }, undefined, companyId);
  });
  return { url: feedUrl(s, token), created_at: toIso(now) };
}

async function revoke(ctx: Ctx, companyId: string, owner: FeedOwner): Promise<void> {
  await withTransaction(ctx.services.db, async (tx) => {
    await calendarFeedsRepo(tx).revoke(owner);
    await auditFromCtx(tx, ctx, 'settings_update', { area: 'on_call', action: 'calendar_feed_revoke', ...owner }, undefined, companyId);
  });
}

async function scheduleOf(ctx: Ctx, id: string) {
  requirePermission(ctx, 'update', 'settings', 'share on-call calendars');
  const row = await schedulesRepo(ctx.services.db).find(id, companyScope(ctx, null));
  if (!row) throw notFound('Schedule');
  return row;
}

function personOf(ctx: Ctx): { userId: string; companyId: string } {
  const actor = requireActor(ctx);
  if (!actor.companyId) throw new DomainError('forbidden', 'On-call calendars belong to company accounts.');
  return { userId: actor.userId, companyId: actor.companyId };
}

export async function createScheduleCalendarFeed(ctx: Ctx, id: string) {
  const row = await scheduleOf(ctx, id);
  return issue(ctx, row.company_id, { scheduleId: row.id });
}

export async function revokeScheduleCalendarFeed(ctx: Ctx, id: string): Promise<void> {
  const row = await scheduleOf(ctx, id);
  await revoke(ctx, row.company_id, { scheduleId: row.id });
}

export async function createMyCalendarFeed(ctx: Ctx) {
  const me = personOf(ctx);
  return issue(ctx, me.companyId, { userId: me.userId });
}

export async function revokeMyCalendarFeed(ctx: Ctx): Promise<void> {
  const me = personOf(ctx);
  await revoke(ctx, me.companyId, { userId: me.userId });
}

/** The feed behind a token as iCalendar text; an unknown or revoked token is 404. */
export async function calendarFeed(services: Services, token: string): Promise<string> {
  const feed = token.startsWith('swc_') ? await calendarFeedsRepo(services.db).byTokenHash(hashOf(token)) : undefined;
  if (!feed) throw notFound('Calendar');
  const now = services.now();
  const from = now - FEED_DAYS_BACK * DAY_MS;
  // Resolved from further back, so a shift under way at `from` keeps its real start (and its UID).
  const range = { from: from - ON_CALL_HORIZON_MS, to: now + FEED_DAYS_AHEAD * DAY_MS };
  const shifts = (
    await companyShifts(
      services.db,
      feed.company_id,
      range,
      feed.schedule_id ? { scheduleId: feed.schedule_id } : { userId: feed.user_id ?? '' },
    )
  ).filter((s) => Date.parse(s.end) > from);
  const first = shifts[0];
  const cal = ical({
    name: feed.schedule_id ? `On call: ${first?.schedule_name ?? 'schedule'}` : `My on-call shifts${first ? `: ${first.user_name}` : ''}`,
    prodId: { company: 'StatusWatch', product: 'on-call', language: 'EN' },
    ttl: 3600,
  });
  for (const s of shifts) {
    cal.createEvent({
      // Stable: the same shift keeps its UID on every refresh (schedule, person, start).
      id: `${s.schedule_id}-${s.user_id}-${Date.parse(s.start)}@statuswatch`,
      start: new Date(s.start),
      end: new Date(s.end),
      stamp: new Date(now),
      summary: feed.schedule_id ? `${s.user_name} on call (${s.schedule_name})` : `On call: ${s.schedule_name}`,
      description: `${s.user_name} is on call in the schedule "${s.schedule_name}"${s.override_id ? ' (override)' : ''}.`,
    });
  }
  return cal.toString();
}
