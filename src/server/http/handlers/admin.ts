import type { HandlerMap } from '../handler-types.ts';

export const adminHandlers = {} satisfies HandlerMap;
