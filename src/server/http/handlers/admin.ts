import type { HandlerMap } from '../handler-types.ts';
import { createCompany, deleteCompany, getCompany, listCompanies, updateCompany } from '../../domain/company/admin.ts';
import { createUser, deleteUser, listUsers, resetUserPassword, updateUser } from '../../domain/users/admin.ts';
import { createInvitation, listInvitations, resendInvitation, revokeInvitation } from '../../domain/users/invitations.ts';
import { publicPortOf } from '../public-origin.ts';
import { getFlags, setFlags } from '../../domain/flags/flags.ts';
import { getDashboardSummary } from '../../domain/company/summary.ts';

export const adminHandlers = {
  listCompanies: async ({ ctx }) => listCompanies(ctx),
  getCompany: async ({ ctx, params }) => getCompany(ctx, params.id),
  createCompany: async ({ ctx, body, reply }) => {
    const c = await createCompany(ctx, body);
    reply.code(201);
    return c;
  },
  updateCompany: async ({ ctx, params, body }) => updateCompany(ctx, params.id, body),
  deleteCompany: async ({ ctx, params }) => {
    await deleteCompany(ctx, params.id);
    return { ok: true, message: 'Company deleted successfully!' };
  },
  listUsers: async ({ ctx, query }) => listUsers(ctx, query),
  createUser: async ({ ctx, body, reply }) => {
    const u = await createUser(ctx, body);
    reply.code(201);
    return u;
  },
  updateUser: async ({ ctx, params, body }) => updateUser(ctx, params.id, body),
  deleteUser: async ({ ctx, params }) => {
    await deleteUser(ctx, params.id);
    return { ok: true, message: 'User deleted successfully!' };
  },
  resetUserPassword: async ({ ctx, params, body }) => {
    await resetUserPassword(ctx, params.id, body);
    return { ok: true, message: 'Password reset successfully!' };
  },
  listInvitations: async ({ ctx, query }) => listInvitations(ctx, query),
  createInvitation: async ({ ctx, body, req, reply }) => {
    const inv = await createInvitation(ctx, body, publicPortOf(req.headers.host, ctx.services.config));
    reply.code(201);
    return inv;
  },
  resendInvitation: async ({ ctx, params, req }) => resendInvitation(ctx, params.id, publicPortOf(req.headers.host, ctx.services.config)),
  revokeInvitation: async ({ ctx, params }) => {
    await revokeInvitation(ctx, params.id);
    return { ok: true, message: 'Invitation revoked.' };
  },
  getFlags: async ({ ctx }) => getFlags(ctx),
  updateFlags: async ({ ctx, body }) => setFlags(ctx, body as Record<string, boolean>),
  getDashboardSummary: async ({ ctx }) => getDashboardSummary(ctx),
} satisfies HandlerMap;
