// SQL for the audit trail.
import type { Insertable, Selectable } from 'kysely';
import type { DbScope } from '../scope.ts';
import type { AuditEventsTable } from '../schema/identity.ts';

export type AuditRow = Selectable<AuditEventsTable>;

export interface AuditFilter {
  event?: string;
  tenantId?: string;
  userId?: string;
  from?: number;
  to?: number;
}

export function auditRepo(db: DbScope) {
  const k = db.k;
  const filtered = (f: AuditFilter) => {
    let q = k.selectFrom('audit_events');
    if (f.event) q = q.where('event', '=', f.event);
    if (f.tenantId) q = q.where('tenant_id', '=', f.tenantId);
    if (f.userId) q = q.where('user_id', '=', f.userId);
    if (f.from !== undefined) q = q.where('timestamp', '>=', f.from);
    if (f.to !== undefined) q = q.where('timestamp', '<=', f.to);
    return q;
  };
  return {
    async insert(row: Insertable<AuditEventsTable>): Promise<void> {
      await k.insertInto('audit_events').values(row).execute();
    },
    list(f: AuditFilter, page: { limit: number; offset: number }): Promise<AuditRow[]> {
      return filtered(f).selectAll().orderBy('timestamp', 'desc').orderBy('id', 'desc').limit(page.limit).offset(page.offset).execute();
    },
    async count(f: AuditFilter): Promise<number> {
      const r = await filtered(f)
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow();
      return Number(r.n);
    },
  };
}
