import type { HandlerMap } from '../handler-types.ts';

export const notificationsHandlers = {} satisfies HandlerMap;
