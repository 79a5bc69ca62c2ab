import type { HandlerMap } from '../handler-types.ts';

export const auditHandlers = {} satisfies HandlerMap;
