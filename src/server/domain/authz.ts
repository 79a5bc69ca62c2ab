// Permission checks every service verb starts with, and the tenant scope it filters by.
// Tenant and role come only from the session: a tenant id in a query or body is honoured only
// for super admins (who may look at one company or at all of them).
import { RESOURCE_LABELS } from '../../lib/labels.ts';
import { can, type Action, type Resource } from '../../lib/permissions.ts';
import type { Actor, Ctx } from './context.ts';
import { DomainError, SUPER_ADMIN_REQUIRED } from './errors.ts';

export function requireActor(ctx: Ctx): Actor {
  if (!ctx.actor) throw new DomainError('unauthorized', 'Authentication required. Please sign in.');
  return ctx.actor;
}

const VERBS: Record<Action, string> = { view: 'view', create: 'create', update: 'change', delete: 'delete', export: 'export' };

/**
 * Refuses an actor whose role lacks `action` on `resource`. The refusal names what was tried:
 * `doing` ('manage incidents') where the resource only stands in for the thing (incidents are
 * guarded by the monitors resource, alert channels by settings), else the action and resource
 * in words ('view traces').
 */
export function requirePermission(ctx: Ctx, action: Action, resource: Resource, doing?: string): Actor {
  const actor = requireActor(ctx);
  if (!can(actor.role, action, resource)) {
    throw new DomainError('forbidden', `You do not have permission to ${doing ?? `${VERBS[action]} ${RESOURCE_LABELS[resource]}`}.`);
  }
  return actor;
}

export function requireSuperAdmin(ctx: Ctx): Actor {
  const actor = requireActor(ctx);
  if (actor.role !== 'super_admin') throw new DomainError('forbidden', SUPER_ADMIN_REQUIRED);
  return actor;
}

/**
 * The company a read or write is limited to. Company users: always their own (whatever they
 * asked for). Super admins: the one they asked for, or null meaning every company.
 */
export function companyScope(ctx: Ctx, requested?: string | null): string | null {
  const actor = requireActor(ctx);
  if (actor.role === 'super_admin') return requested || null;
  if (!actor.companyId) throw new DomainError('forbidden', 'Your account is not assigned to a company.');
  return actor.companyId;
}
