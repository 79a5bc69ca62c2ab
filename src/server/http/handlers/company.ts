import type { HandlerMap } from '../handler-types.ts';
import { fetchOwnCompany } from '../../domain/company/admin.ts';

export const companyHandlers = {
  fetchCompany: async ({ ctx }) => fetchOwnCompany(ctx),
} satisfies HandlerMap;
