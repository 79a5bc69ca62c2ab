// Vulnerability scans: list (with each asset's latest scan), "Scan now", one scan with its findings.
import type { HandlerMap } from '../handler-types.ts';
import { getScan, listScans, triggerScan } from '../../domain/security/scans.ts';

export const securityScansHandlers = {
  listSecurityScans: async ({ ctx, query }) => listScans(ctx, query),
  triggerSecurityScan: async ({ ctx, body, reply }) => {
    const scan = await triggerScan(ctx, body);
    reply.code(202);
    return scan;
  },
  getSecurityScan: async ({ ctx, params }) => getScan(ctx, params.id),
} satisfies HandlerMap;
