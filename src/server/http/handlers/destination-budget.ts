import type { HandlerMap } from '../handler-types.ts';
import { listDestinationBudget } from '../../domain/monitors/destination-budget.ts';

export const destinationBudgetHandlers = {
  getDestinationBudget: async ({ ctx }) => listDestinationBudget(ctx),
} satisfies HandlerMap;
