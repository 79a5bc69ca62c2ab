// Maintenance windows: checks keep running, but no incident opens and no alert goes out; the
// monitor shows as in maintenance and rollups count those checks apart.
import { maintenanceRepo, type MaintenanceRow } from '../../db/repositories/maintenance-repo.ts';
import { monitorsRepo } from '../../db/repositories/monitors-repo.ts';
import { withTransaction } from '../../db/scope.ts';
import { enqueueMaintenanceNotice } from '../../notify/outbox/subscriber-enqueue.ts';
import { affectedMonitors } from './affected-monitors.ts';
import { announceEndBeforeDelete } from './maintenance-notices.ts';
import { companyScope, requirePermission } from '../authz.ts';
import type { Ctx } from '../context.ts';
import { DomainError, notFound } from '../errors.ts';
import { newId, toIso, toIsoOrNull } from '../ids.ts';
import { plainTextProblem } from '../../../lib/plain-text.ts';
import { MAX_RECURRING_SPAN_MS, occurrenceFrom, type Recurrence } from '../../../lib/maintenance.ts';

type WindowState = 'scheduled' | 'active' | 'completed' | 'cancelled';

function present(w: MaintenanceRow, now: number) {
  const next = occurrenceFrom(w, now);
  const state: WindowState = w.cancelled_at !== null ? 'cancelled' : !next ? 'completed' : next.start <= now ? 'active' : 'scheduled';
  return {
    id: w.id,
    company_id: w.company_id,
    monitor_id: w.monitor_id,
    monitor_ids: w.monitor_ids,
    title: w.title,
    description: w.description,
    starts_at: toIso(w.starts_at),
    ends_at: toIso(w.ends_at),
    created_at: toIso(w.created_at),
    recurrence: w.recurrence ?? null,
    state,
    next_starts_at: next ? toIso(next.start) : null,
    next_ends_at: next ? toIso(next.end) : null,
    cancelled_at: toIsoOrNull(w.cancelled_at),
  };
}

interface WindowInput {
  title?: string;
  description?: string | null;
  starts_at?: string;
  ends_at?: string;
  monitor_id?: string | null;
  monitor_ids?: string[];
  recurrence?: Recurrence | null;
}

/** Plain text (windows are listed on the status page and in its feeds), a span, a repeat it fits. */
function checkWindow(input: WindowInput, starts: number, ends: number, recurrence: Recurrence | null): void {
  for (const [field, label] of [
    ['title', 'Title'],
    ['description', 'Description'],
  ] as const) {
    const problem = plainTextProblem(label, input[field]);
    if (problem) throw new DomainError('validation', problem, { fields: { [field]: problem } });
  }
  if (input.title !== undefined && !input.title.trim())
    throw new DomainError('validation', 'Title is required', { fields: { title: 'Title is required' } });
  if (!(ends > starts))
    throw new DomainError('validation', 'The window must end after it starts', { fields: { ends_at: 'Must be after the start' } });
  if (recurrence && ends - starts > MAX_RECURRING_SPAN_MS[recurrence]) {
    const most = recurrence === 'weekly' ? '7 days' : '28 days';
    throw new DomainError('validation', `A ${recurrence} window lasts at most ${most}`, {
      fields: { ends_at: `A ${recurrence} window lasts at most ${most}` },
    });
  }
}

export async function listMaintenance(ctx: Ctx, q: { tenant?: string; upcoming?: boolean; monitor_id?: string }) {
  requirePermission(ctx, 'view', 'monitors', 'view maintenance windows');
  const rows = await maintenanceRepo(ctx.services.db).list(companyScope(ctx, q.tenant), {
    activeOrFutureAt: q.upcoming ? ctx.services.now() : undefined,
    monitorId: q.monitor_id,
    limit: 200,
  });
  const now = ctx.services.now();
  return rows.map((w) => present(w, now));
}

export async function createMaintenance(
  ctx: Ctx,
  input: {
    title: string;
    description?: string | null;
    starts_at: string;
    ends_at: string;
    monitor_id?: string | null;
    monitor_ids?: string[];
    company_id?: string | null;
    recurrence?: Recurrence | null;
  },
) {
  const actor = requirePermission(ctx, 'update', 'monitors', 'schedule maintenance');
  const starts = Date.parse(input.starts_at);
  const ends = Date.parse(input.ends_at);
  checkWindow(input, starts, ends, input.recurrence ?? null);
  const db = ctx.services.db;
  let companyId = actor.role === 'super_admin' ? (input.company_id ?? null) : companyScope(ctx, null);
  const first = input.monitor_ids?.[0] ?? input.monitor_id;
  if (!companyId && first) {
    // A super admin may name the monitors only: the company is theirs.
    const m = await monitorsRepo(db).findById(first, null);
    if (!m)
      throw new DomainError('validation', 'Monitor not found', {
        fields: { monitor_ids: 'Monitor not found', monitor_id: 'Monitor not found' },
      });
    companyId = m.company_id;
  }
  if (!companyId)
    throw new DomainError('validation', 'Choose the company or monitor this window belongs to', {
      fields: { company_id: 'Company is required' },
    });
  const monitorIds = await affectedMonitors(ctx, companyId, input);
  const title = input.title.trim();
  const row = {
    id: newId(),
    company_id: companyId,
    monitor_id: monitorIds[0] ?? null,
    title,
    description: input.description ?? null,
    starts_at: starts,
    ends_at: ends,
    created_at: ctx.services.now(),
    recurrence: input.recurrence ?? null,
    cancelled_at: null,
    updated_at: null,
  };
  await withTransaction(db, async (tx) => {
    await maintenanceRepo(tx).insert(row, monitorIds);
    // Scheduled ahead: subscribers hear of it now (its start and end come from the notices job).
    if (ends > row.created_at)
      await enqueueMaintenanceNotice(
        tx,
        { windowId: row.id, event: 'maintenance.scheduled', startsAt: starts, endsAt: ends },
        row.created_at,
      );
  });
  return present({ ...row, monitor_ids: monitorIds }, ctx.services.now());
}

async function findWindow(ctx: Ctx, id: string): Promise<MaintenanceRow> {
  const w = await maintenanceRepo(ctx.services.db).findById(id, companyScope(ctx, null));
  if (!w) throw notFound('Maintenance window');
  if (w.cancelled_at !== null) throw new DomainError('conflict', 'This maintenance window is cancelled.');
  return w;
}

async function reread(ctx: Ctx, w: MaintenanceRow) {
  const row = await maintenanceRepo(ctx.services.db).findById(w.id, w.company_id);
  return present(row!, ctx.services.now());
}

/** Edits a window that is not cancelled: any of its fields, in the company it belongs to. */
export async function editMaintenance(ctx: Ctx, id: string, input: WindowInput) {
  requirePermission(ctx, 'update', 'monitors', 'change maintenance windows');
  const w = await findWindow(ctx, id);
  const starts = input.starts_at === undefined ? Number(w.starts_at) : Date.parse(input.starts_at);
  const ends = input.ends_at === undefined ? Number(w.ends_at) : Date.parse(input.ends_at);
  const recurrence = input.recurrence === undefined ? (w.recurrence ?? null) : input.recurrence;
  checkWindow(input, starts, ends, recurrence);
  const monitorIds =
    input.monitor_ids === undefined && input.monitor_id === undefined ? undefined : await affectedMonitors(ctx, w.company_id, input);
  await withTransaction(ctx.services.db, async (tx) => {
    const repo = maintenanceRepo(tx);
    await repo.update(w.id, w.company_id, {
      ...(input.title === undefined ? {} : { title: input.title.trim() }),
      ...(input.description === undefined ? {} : { description: input.description }),
      ...(monitorIds === undefined ? {} : { monitor_id: monitorIds[0] ?? null }),
      starts_at: starts,
      ends_at: ends,
      recurrence,
      updated_at: ctx.services.now(),
    });
    if (monitorIds) await repo.setMonitors(w.id, w.company_id, monitorIds);
  });
  return reread(ctx, w);
}

/** Ends the running occurrence now; a recurring window does not come back after it. */
export async function endMaintenance(ctx: Ctx, id: string) {
  requirePermission(ctx, 'update', 'monitors', 'end maintenance windows');
  const w = await findWindow(ctx, id);
  const now = ctx.services.now();
  const o = occurrenceFrom(w, now);
  if (!o || o.start > now)
    throw new DomainError('conflict', 'This maintenance window is not running; cancel it or edit its times instead.');
  await maintenanceRepo(ctx.services.db).update(w.id, w.company_id, {
    starts_at: o.start,
    ends_at: now,
    recurrence: null,
    updated_at: now,
  });
  return reread(ctx, w);
}

/** Cancels a window (every occurrence still to come, and the running one): it stays listed, covering nothing. */
export async function cancelMaintenance(ctx: Ctx, id: string) {
  requirePermission(ctx, 'update', 'monitors', 'cancel maintenance windows');
  const w = await findWindow(ctx, id);
  await maintenanceRepo(ctx.services.db).update(w.id, w.company_id, { cancelled_at: ctx.services.now(), updated_at: ctx.services.now() });
  return reread(ctx, w);
}

/** Deleting removes the record: super admins only (spec section 6 gives company admins no delete). */
export async function deleteMaintenance(ctx: Ctx, id: string): Promise<void> {
  requirePermission(ctx, 'delete', 'monitors', 'delete maintenance windows');
  const w = await maintenanceRepo(ctx.services.db).findById(id, companyScope(ctx, null));
  if (!w) throw notFound('Maintenance window');
  await withTransaction(ctx.services.db, async (tx) => {
    await announceEndBeforeDelete(tx, w, ctx.services.now());
    await maintenanceRepo(tx).delete(id, w.company_id);
  });
}
