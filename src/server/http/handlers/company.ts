import type { HandlerMap } from '../handler-types.ts';
import { fetchOwnCompany } from '../../domain/company/admin.ts';
import { getFirstSteps } from '../../domain/company/first-steps.ts';
import { publicPortOf } from '../public-origin.ts';
import { getInvitePolicy } from '../../domain/users/invite-policy.ts';

export const companyHandlers = {
  fetchCompany: async ({ ctx }) => fetchOwnCompany(ctx),
  getFirstSteps: async ({ ctx, req }) => getFirstSteps(ctx, publicPortOf(req.headers.host, ctx.services.config)),
  getInvitePolicy: async ({ ctx, reply }) => {
    reply.header('cache-control', 'no-store');
    return getInvitePolicy(ctx);
  },
} satisfies HandlerMap;
