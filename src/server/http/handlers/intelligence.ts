import type { HandlerMap } from '../handler-types.ts';

export const intelligenceHandlers = {} satisfies HandlerMap;
