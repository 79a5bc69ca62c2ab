import type { HandlerMap } from '../handler-types.ts';

export const incidentsHandlers = {} satisfies HandlerMap;
