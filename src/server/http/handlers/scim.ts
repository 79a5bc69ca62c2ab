// SCIM provisioning (domain/scim): the company admin's settings calls, and the /scim/v2
// endpoints, each judged by the company's SCIM token alone. SCIM answers are
// application/scim+json; their errors are rewritten as SCIM error bodies (scim-errors.ts).
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Ctx } from '../../domain/context.ts';
import type { HandlerMap } from '../handler-types.ts';
import { createScimToken, getScimSettings, revokeScimToken, saveScimRoleGroups } from '../../domain/scim/settings.ts';
import { scimCaller, type ScimCaller } from '../../domain/scim/caller.ts';
import { resourceTypeList, schemaList, serviceProviderConfig } from '../../domain/scim/discovery.ts';
import { createScimUser, deleteScimUser, getScimUser, listScimUsers, patchScimUser, replaceScimUser } from '../../domain/scim/users.ts';
import {
  createScimGroup,
  deleteScimGroup,
  getScimGroup,
  listScimGroups,
  patchScimGroup,
  replaceScimGroup,
} from '../../domain/scim/groups.ts';
import { bearerToken } from '../auth/resolve-actor.ts';
import { SCIM_MEDIA_TYPE } from '../scim-errors.ts';

type Json = Record<string, unknown>;

function originOf(ctx: Ctx, req: FastifyRequest): string {
  return `${ctx.services.config.publicScheme}://${req.headers.host ?? ctx.host}`;
}

function caller(ctx: Ctx, req: FastifyRequest): Promise<ScimCaller> {
  return scimCaller(ctx.services, bearerToken(req), {
    host: ctx.host,
    base: `${originOf(ctx, req)}/scim/v2`,
    ip: ctx.ip,
    userAgent: ctx.userAgent,
  });
}

function scim<T>(reply: FastifyReply, body: T, status = 200): T {
  reply.code(status).type(SCIM_MEDIA_TYPE);
  return body;
}

function created<T extends { meta: { location: string } }>(reply: FastifyReply, body: T): T {
  reply.header('location', body.meta.location);
  return scim(reply, body, 201);
}

export const scimHandlers = {
  getScimSettings: async ({ ctx, req }) => getScimSettings(ctx, originOf(ctx, req)),
  createScimToken: async ({ ctx, req, reply }) => {
    const made = await createScimToken(ctx, originOf(ctx, req));
    reply.code(201);
    return made;
  },
  revokeScimToken: async ({ ctx }) => {
    await revokeScimToken(ctx);
    return { ok: true };
  },
  saveScimRoleGroups: async ({ ctx, req, body }) => saveScimRoleGroups(ctx, originOf(ctx, req), body),
  getScimServiceProviderConfig: async ({ ctx, req, reply }) => scim(reply, serviceProviderConfig((await caller(ctx, req)).base)),
  listScimResourceTypes: async ({ ctx, req, reply }) => scim(reply, resourceTypeList((await caller(ctx, req)).base)),
  listScimSchemas: async ({ ctx, req, reply }) => scim(reply, schemaList((await caller(ctx, req)).base)),
  listScimUsers: async ({ ctx, req, reply, query }) => scim(reply, await listScimUsers(await caller(ctx, req), query)),
  createScimUser: async ({ ctx, req, reply, body }) => created(reply, await createScimUser(await caller(ctx, req), body as Json)),
  getScimUser: async ({ ctx, req, reply, params }) => scim(reply, await getScimUser(await caller(ctx, req), params.id)),
  replaceScimUser: async ({ ctx, req, reply, params, body }) =>
    scim(reply, await replaceScimUser(await caller(ctx, req), params.id, body as Json)),
  patchScimUser: async ({ ctx, req, reply, params, body }) =>
    scim(reply, await patchScimUser(await caller(ctx, req), params.id, body as Json)),
  deleteScimUser: async ({ ctx, req, reply, params }) => {
    await deleteScimUser(await caller(ctx, req), params.id);
    reply.code(204);
    return undefined;
  },
  listScimGroups: async ({ ctx, req, reply, query }) => scim(reply, await listScimGroups(await caller(ctx, req), query)),
  createScimGroup: async ({ ctx, req, reply, body }) => created(reply, await createScimGroup(await caller(ctx, req), body as Json)),
  getScimGroup: async ({ ctx, req, reply, params, query }) => scim(reply, await getScimGroup(await caller(ctx, req), params.id, query)),
  replaceScimGroup: async ({ ctx, req, reply, params, body }) =>
    scim(reply, await replaceScimGroup(await caller(ctx, req), params.id, body as Json)),
  patchScimGroup: async ({ ctx, req, reply, params, body }) =>
    scim(reply, await patchScimGroup(await caller(ctx, req), params.id, body as Json)),
  deleteScimGroup: async ({ ctx, req, reply, params }) => {
    await deleteScimGroup(await caller(ctx, req), params.id);
    reply.code(204);
    return undefined;
  },
} satisfies HandlerMap;
