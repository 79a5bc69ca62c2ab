import type { HandlerMap } from '../handler-types.ts';

export const monitorsHandlers = {} satisfies HandlerMap;
