import type { HandlerMap } from '../handler-types.ts';

export const publicHandlers = {} satisfies HandlerMap;
