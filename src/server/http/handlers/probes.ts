// Probe locations, their tokens, and the probe's own hello (domain/probes).
import type { HandlerMap } from '../handler-types.ts';
import { createProbeLocation, deleteProbeLocation, getProbeLocation, listProbeLocations } from '../../domain/probes/locations.ts';
import { createProbeToken, revokeProbeToken } from '../../domain/probes/tokens.ts';
import { probeHello } from '../../domain/probes/hello.ts';
import { getProbeAssignments } from '../../domain/probes/assignments.ts';
import { postProbeResults } from '../../domain/probes/results.ts';
import { bearerToken } from '../auth/resolve-actor.ts';

export const probesHandlers = {
  listProbeLocations: async ({ ctx }) => listProbeLocations(ctx),
  createProbeLocation: async ({ ctx, body, reply }) => {
    const created = await createProbeLocation(ctx, body);
    reply.code(201);
    return created;
  },
  getProbeLocation: async ({ ctx, params }) => getProbeLocation(ctx, params.id),
  deleteProbeLocation: async ({ ctx, params }) => {
    await deleteProbeLocation(ctx, params.id);
    return { ok: true };
  },
  createProbeToken: async ({ ctx, params, body, reply }) => {
    const created = await createProbeToken(ctx, params.id, body);
    reply.code(201);
    return created;
  },
  revokeProbeToken: async ({ ctx, params }) => {
    await revokeProbeToken(ctx, params.id, params.token_id);
    return { ok: true };
  },
  probeHello: async ({ ctx, req, body }) => probeHello(ctx.services, bearerToken(req), body),
  getProbeAssignments: async ({ ctx, req, reply, query }) => {
    // A probe that hangs up ends its long poll (no work for nobody).
    const gone = new AbortController();
    reply.raw.once('close', () => gone.abort());
    return getProbeAssignments(ctx.services, bearerToken(req), query, gone.signal);
  },
  postProbeResults: async ({ ctx, req, body }) => postProbeResults(ctx.services, bearerToken(req), body),
} satisfies HandlerMap;
