import type { HandlerMap } from '../handler-types.ts';

export const companyHandlers = {} satisfies HandlerMap;
