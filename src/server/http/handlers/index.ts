// Every operation's handler, one map per product area. An operationId missing here answers 501
// (the contract harness lists those). `satisfies HandlerMap` ties names and types to the spec.
import type { HandlerMap } from '../handler-types.ts';
import { systemHandlers } from './system.ts';

export const handlers = {
  ...systemHandlers,
} satisfies HandlerMap;
