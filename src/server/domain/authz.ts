// Permission checks every service verb starts with, and the tenant scope it filters by.
// Tenant and role come only from the session: a tenant id in a query or body is honoured only
// for super admins (who may look at one company or at all of them).
import { can, type Action, type Resource } from '../../lib/permissions.ts';
import type { Actor, Ctx } from './context.ts';
import { DomainError, SUPER_ADMIN_REQUIRED } from './errors.ts';

export function requireActor(ctx: Ctx): Actor {
  if (!ctx.actor) throw new DomainError('unauthorized', 'Authentication required. Please sign in.');
  return ctx.actor;
}

export function requirePermission(ctx: Ctx, action: Action, resource: Resource): Actor {
  const actor = requireActor(ctx);
  if (!can(actor.role, action, resource)) {
    throw new DomainError('forbidden', `You do not have permission to ${action} ${resource.replace(/_/g, ' ')}.`);
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
