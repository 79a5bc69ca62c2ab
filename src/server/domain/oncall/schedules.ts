// On-call schedule verbs. Company users (viewers too) read their company's schedules, shifts and
// who is on call; company admins write them (`settings: update`, like the escalation policy),
// each write audited as settings_update with what changed. Another company's schedule is 404.
import { personalContactsRepo } from '../../db/repositories/personal-contacts-repo.ts';
import { schedulesRepo, type ScheduleOverrideRow, type ScheduleRow } from '../../db/repositories/schedules-repo.ts';
import { withTransaction, type DbScope } from '../../db/scope.ts';
import { auditFromCtx } from '../audit/record.ts';
import { companyScope, requireActor, requirePermission } from '../authz.ts';
import type { Ctx } from '../context.ts';
import { DomainError, notFound } from '../errors.ts';
import { newId, toIso } from '../ids.ts';
import { onCallAt, resolveShifts, type Segment } from './resolve.ts';
import { layersOf, specOf } from './spec.ts';
import { checkOverrideRange, checkSchedule, instantOf, invalid, type ScheduleInput } from './validate.ts';

export const MAX_SCHEDULES_PER_COMPANY = 100;
const DAY_MS = 86_400_000;
export const MAX_SHIFT_RANGE_MS = 100 * DAY_MS;
const DEFAULT_SHIFT_RANGE_MS = 14 * DAY_MS;

type Names = Map<string, string>;

async function namesOf(db: DbScope, companyId: string): Promise<Names> {
  return new Map((await personalContactsRepo(db).people(companyId)).map((p) => [p.id, p.full_name]));
}

const nameIn = (names: Names, id: string) => names.get(id) ?? 'Former member';

export function presentShift(row: ScheduleRow, names: Names, s: Segment) {
  return {
    schedule_id: row.id,
    schedule_name: row.name,
    user_id: s.userId,
    user_name: nameIn(names, s.userId),
    start: toIso(s.start),
    end: toIso(s.end),
    layer: s.layer,
    override_id: s.overrideId,
  };
}

function present(row: ScheduleRow, overrides: ScheduleOverrideRow[], names: Names, now: number) {
  const mine = overrides.filter((o) => o.schedule_id === row.id);
  const { current, next } = onCallAt(specOf(row, mine), now);
  return {
    id: row.id,
    company_id: row.company_id,
    name: row.name,
    time_zone: row.time_zone,
    layers: layersOf(row),
    overrides: mine.map((o) => ({
      id: o.id,
      user_id: o.user_id,
      user_name: nameIn(names, o.user_id),
      start: toIso(o.start_at),
      end: toIso(o.end_at),
      created_at: toIso(o.created_at),
    })),
    people: [...names].map(([id, name]) => ({ id, name })),
    on_call_now: current && presentShift(row, names, current),
    on_call_next: next && presentShift(row, names, next),
    created_at: toIso(row.created_at),
    updated_at: toIso(row.updated_at),
  };
}

async function presentOne(ctx: Ctx, row: ScheduleRow) {
  const db = ctx.services.db;
  const now = ctx.services.now();
  return present(row, await schedulesRepo(db).overridesOf([row.id], now), await namesOf(db, row.company_id), now);
}

async function ownSchedule(ctx: Ctx, id: string): Promise<ScheduleRow> {
  const row = await schedulesRepo(ctx.services.db).find(id, companyScope(ctx, null));
  if (!row) throw notFound('Schedule');
  return row;
}

const readRight = (ctx: Ctx) => requirePermission(ctx, 'view', 'monitors', 'view on-call schedules');
const writeRight = (ctx: Ctx) => requirePermission(ctx, 'update', 'settings', 'change on-call schedules');

function ownCompany(ctx: Ctx): string {
  const companyId = companyScope(ctx, null);
  if (!companyId) throw new DomainError('forbidden', 'Schedules belong to a company: sign in to the company to change them.');
  return companyId;
}

export async function listSchedules(ctx: Ctx) {
  readRight(ctx);
  const db = ctx.services.db;
  const now = ctx.services.now();
  const rows = await schedulesRepo(db).list(companyScope(ctx, null));
  const overrides = await schedulesRepo(db).overridesOf(
    rows.map((r) => r.id),
    now,
  );
  const names = new Map<string, Names>();
  const out = [];
  for (const row of rows) {
    let n = names.get(row.company_id);
    if (!n) names.set(row.company_id, (n = await namesOf(db, row.company_id)));
    out.push(present(row, overrides, n, now));
  }
  return out;
}

export async function getSchedule(ctx: Ctx, id: string) {
  readRight(ctx);
  return presentOne(ctx, await ownSchedule(ctx, id));
}

export async function createSchedule(ctx: Ctx, input: ScheduleInput) {
  writeRight(ctx);
  const companyId = ownCompany(ctx);
  const s = ctx.services;
  const repo = schedulesRepo(s.db);
  if ((await repo.countOf(companyId)) >= MAX_SCHEDULES_PER_COMPANY)
    throw new DomainError('limit_exceeded', `A company has at most ${MAX_SCHEDULES_PER_COMPANY} schedules`);
  const checked = await checkSchedule(input, (ids) => repo.membersAmong(companyId, ids));
  const now = s.now();
  const id = newId();
  await withTransaction(s.db, async (tx) => {
    await schedulesRepo(tx).insert({
      id,
      company_id: companyId,
      name: checked.name,
      time_zone: checked.timeZone,
      layers: JSON.stringify(checked.layers),
      created_at: now,
      updated_at: now,
    });
    await auditFromCtx(tx, ctx, 'settings_update', { area: 'on_call', action: 'schedule_create', schedule_id: id, name: checked.name });
  });
  return presentOne(ctx, (await repo.find(id, companyId))!);
}

export async function updateSchedule(ctx: Ctx, id: string, input: ScheduleInput) {
  writeRight(ctx);
  const row = await ownSchedule(ctx, id);
  const s = ctx.services;
  const checked = await checkSchedule(input, (ids) => schedulesRepo(s.db).membersAmong(row.company_id, ids));
  await withTransaction(s.db, async (tx) => {
    await schedulesRepo(tx).update(id, {
      name: checked.name,
      time_zone: checked.timeZone,
      layers: JSON.stringify(checked.layers),
      updated_at: s.now(),
    });
    await auditFromCtx(
      tx,
      ctx,
      'settings_update',
      { area: 'on_call', action: 'schedule_update', schedule_id: id, name: checked.name },
      undefined,
      row.company_id,
    );
  });
  return presentOne(ctx, (await schedulesRepo(s.db).find(id, row.company_id))!);
}

export async function deleteSchedule(ctx: Ctx, id: string): Promise<void> {
  writeRight(ctx);
  const row = await ownSchedule(ctx, id);
  await withTransaction(ctx.services.db, async (tx) => {
    await schedulesRepo(tx).delete(id);
    await auditFromCtx(
      tx,
      ctx,
      'settings_update',
      { area: 'on_call', action: 'schedule_delete', schedule_id: id, name: row.name },
      undefined,
      row.company_id,
    );
  });
}

export async function createScheduleOverride(ctx: Ctx, id: string, input: { user_id: string; start: string; end: string }) {
  writeRight(ctx);
  const row = await ownSchedule(ctx, id);
  const s = ctx.services;
  const start = instantOf(input.start, 'start');
  const end = instantOf(input.end, 'end');
  checkOverrideRange(start, end);
  if (end <= s.now()) throw invalid('end', 'The override is over already');
  if (!(await schedulesRepo(s.db).membersAmong(row.company_id, [input.user_id])).has(input.user_id))
    throw invalid('user_id', 'User not found in this company');
  const overrideId = newId();
  await withTransaction(s.db, async (tx) => {
    await schedulesRepo(tx).insertOverride({
      id: overrideId,
      schedule_id: id,
      company_id: row.company_id,
      user_id: input.user_id,
      start_at: start,
      end_at: end,
      created_at: s.now(),
    });
    await auditFromCtx(
      tx,
      ctx,
      'settings_update',
      {
        area: 'on_call',
        action: 'schedule_override_create',
        schedule_id: id,
        override_id: overrideId,
        user_id: input.user_id,
        start: toIso(start),
        end: toIso(end),
      },
      undefined,
      row.company_id,
    );
  });
  return presentOne(ctx, row);
}

export async function deleteScheduleOverride(ctx: Ctx, id: string, overrideId: string): Promise<void> {
  writeRight(ctx);
  const row = await ownSchedule(ctx, id);
  await withTransaction(ctx.services.db, async (tx) => {
    if (!(await schedulesRepo(tx).deleteOverride(id, overrideId))) throw notFound('Override');
    await auditFromCtx(
      tx,
      ctx,
      'settings_update',
      { area: 'on_call', action: 'schedule_override_delete', schedule_id: id, override_id: overrideId },
      undefined,
      row.company_id,
    );
  });
}

export async function getScheduleOnCall(ctx: Ctx, id: string, q: { at?: string }) {
  readRight(ctx);
  const row = await ownSchedule(ctx, id);
  const db = ctx.services.db;
  const at = q.at ? instantOf(q.at, 'at') : ctx.services.now();
  const overrides = await schedulesRepo(db).overridesOf([row.id], at - 90 * DAY_MS);
  const names = await namesOf(db, row.company_id);
  const { current, next } = onCallAt(specOf(row, overrides), at);
  return {
    schedule_id: row.id,
    at: toIso(at),
    current: current && presentShift(row, names, current),
    next: next && presentShift(row, names, next),
  };
}

function rangeOf(ctx: Ctx, q: { from?: string; to?: string }): { from: number; to: number } {
  const from = q.from ? instantOf(q.from, 'from') : ctx.services.now();
  const to = q.to ? instantOf(q.to, 'to') : from + DEFAULT_SHIFT_RANGE_MS;
  if (to <= from) throw invalid('to', 'to must come after from');
  if (to - from > MAX_SHIFT_RANGE_MS) throw invalid('to', 'At most 100 days at a time');
  return { from, to };
}

/** The shifts of the company's schedules in [from, to), optionally only `userId`'s, by start. */
export async function companyShifts(
  db: DbScope,
  companyId: string,
  range: { from: number; to: number },
  filter: { userId?: string; scheduleId?: string },
) {
  const repo = schedulesRepo(db);
  const rows = (await repo.list(companyId)).filter((r) => !filter.scheduleId || r.id === filter.scheduleId);
  const overrides = await repo.overridesOf(
    rows.map((r) => r.id),
    range.from,
  );
  const names = await namesOf(db, companyId);
  return rows
    .flatMap((row) => resolveShifts(specOf(row, overrides), range.from, range.to).map((s) => ({ row, s })))
    .filter(({ s }) => !filter.userId || s.userId === filter.userId)
    .sort((a, b) => a.s.start - b.s.start || a.row.name.localeCompare(b.row.name))
    .map(({ row, s }) => presentShift(row, names, s));
}

export async function listScheduleShifts(ctx: Ctx, id: string, q: { from?: string; to?: string }) {
  readRight(ctx);
  const row = await ownSchedule(ctx, id);
  const range = rangeOf(ctx, q);
  return {
    from: toIso(range.from),
    to: toIso(range.to),
    shifts: await companyShifts(ctx.services.db, row.company_id, range, { scheduleId: row.id }),
  };
}

export async function listMyShifts(ctx: Ctx, q: { from?: string; to?: string }) {
  const actor = requireActor(ctx);
  const range = rangeOf(ctx, q);
  const shifts = actor.companyId ? await companyShifts(ctx.services.db, actor.companyId, range, { userId: actor.userId }) : [];
  return { from: toIso(range.from), to: toIso(range.to), shifts };
}

/** Who is on call at `at` in each of these schedules of the company (unknown ids are skipped). */
export async function onCallIn(db: DbScope, companyId: string, scheduleIds: readonly string[], at: number) {
  const repo = schedulesRepo(db);
  const rows = await repo.findMany(scheduleIds, companyId);
  const overrides = await repo.overridesOf(
    rows.map((r) => r.id),
    at - 90 * DAY_MS,
  );
  return rows.flatMap((row) => {
    const { current } = onCallAt(specOf(row, overrides), at);
    return current ? [{ userId: current.userId, scheduleId: row.id, scheduleName: row.name }] : [];
  });
}
