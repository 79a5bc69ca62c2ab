// The security suite's assets and findings: one handler per operationId of openapi/paths/security.yaml.
import type { HandlerMap } from '../handler-types.ts';
import * as assets from '../../domain/security/assets.ts';
import * as findings from '../../domain/security/findings.ts';

export const securityHandlers = {
  listSecurityAssets: async ({ ctx, query }) => assets.listAssets(ctx, query),
  createSecurityAsset: async ({ ctx, body, reply }) => {
    const asset = await assets.createAsset(ctx, body);
    reply.code(201);
    return asset;
  },
  getSecurityAsset: async ({ ctx, params }) => assets.getAsset(ctx, params.id),
  deleteSecurityAsset: async ({ ctx, params, reply }) => {
    await assets.deleteAsset(ctx, params.id);
    return reply.code(204).send();
  },
  verifySecurityAsset: async ({ ctx, params }) => assets.verifyAsset(ctx, params.id),
  listSecurityFindings: async ({ ctx, query }) => findings.listFindings(ctx, query),
  updateSecurityFinding: async ({ ctx, params, body }) => findings.setFindingStatus(ctx, params.id, body),
} satisfies HandlerMap;
