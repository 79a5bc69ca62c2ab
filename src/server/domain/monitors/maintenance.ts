// Maintenance windows: checks keep running, but no incident opens and no alert goes out; the
// monitor shows as in maintenance and rollups count those checks apart.
import { maintenanceRepo, type MaintenanceRow } from '../../db/repositories/maintenance-repo.ts';
import { monitorsRepo } from '../../db/repositories/monitors-repo.ts';
import { companyScope, requirePermission } from '../authz.ts';
import type { Ctx } from '../context.ts';
import { DomainError, notFound } from '../errors.ts';
import { newId, toIso } from '../ids.ts';
import { plainTextProblem } from '../../../lib/plain-text.ts';

function present(w: MaintenanceRow) {
  return {
    id: w.id,
    company_id: w.company_id,
    monitor_id: w.monitor_id,
    title: w.title,
    description: w.description,
    starts_at: toIso(w.starts_at),
    ends_at: toIso(w.ends_at),
    created_at: toIso(w.created_at),
  };
}

export async function listMaintenance(ctx: Ctx, q: { tenant?: string; upcoming?: boolean }) {
  requirePermission(ctx, 'view', 'monitors');
  const rows = await maintenanceRepo(ctx.services.db).list(companyScope(ctx, q.tenant), {
    activeOrFutureAt: q.upcoming ? ctx.services.now() : undefined,
    limit: 200,
  });
  return rows.map(present);
}

export async function createMaintenance(
  ctx: Ctx,
  input: {
    title: string;
    description?: string | null;
    starts_at: string;
    ends_at: string;
    monitor_id?: string | null;
    company_id?: string | null;
  },
) {
  const actor = requirePermission(ctx, 'update', 'monitors');
  // Windows are listed on the status page and in its feeds: no control characters.
  for (const [field, label] of [
    ['title', 'Title'],
    ['description', 'Description'],
  ] as const) {
    const problem = plainTextProblem(label, input[field]);
    if (problem) throw new DomainError('validation', problem, { fields: { [field]: problem } });
  }
  const db = ctx.services.db;
  let companyId = actor.role === 'super_admin' ? (input.company_id ?? null) : companyScope(ctx, null);
  if (input.monitor_id) {
    const m = await monitorsRepo(db).findById(input.monitor_id, companyId);
    if (!m) throw new DomainError('validation', 'Monitor not found', { fields: { monitor_id: 'Monitor not found' } });
    companyId = m.company_id;
  }
  if (!companyId)
    throw new DomainError('validation', 'Choose the company or monitor this window belongs to', {
      fields: { company_id: 'Company is required' },
    });
  const starts = Date.parse(input.starts_at);
  const ends = Date.parse(input.ends_at);
  if (!(ends > starts))
    throw new DomainError('validation', 'The window must end after it starts', { fields: { ends_at: 'Must be after the start' } });
  const title = input.title.trim();
  if (!title) throw new DomainError('validation', 'Title is required', { fields: { title: 'Title is required' } });
  const row = {
    id: newId(),
    company_id: companyId,
    monitor_id: input.monitor_id ?? null,
    title,
    description: input.description ?? null,
    starts_at: starts,
    ends_at: ends,
    created_at: ctx.services.now(),
  };
  await maintenanceRepo(db).insert(row);
  return present(row);
}

export async function deleteMaintenance(ctx: Ctx, id: string): Promise<void> {
  requirePermission(ctx, 'update', 'monitors');
  const repo = maintenanceRepo(ctx.services.db);
  const w = await repo.findById(id, companyScope(ctx, null));
  if (!w) throw notFound('Maintenance window');
  await repo.delete(id, w.company_id);
}
