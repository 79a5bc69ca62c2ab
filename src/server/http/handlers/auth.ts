import type { HandlerMap } from '../handler-types.ts';

export const authHandlers = {} satisfies HandlerMap;
