// Company secrets: one handler per operationId of openapi/paths/secrets.yaml.
import type { HandlerMap } from '../handler-types.ts';
import { deleteSecret, listSecrets, putSecret } from '../../domain/secrets/company-secrets.ts';

/** The optional query's company_id (an all-optional query types as never in HandlerInput). */
const companyIdOf = (query: unknown): string | undefined => (query as { company_id?: string } | undefined)?.company_id;

export const secretsHandlers = {
  listCompanySecrets: async ({ ctx, query }) => listSecrets(ctx, { company_id: companyIdOf(query) }),
  putCompanySecret: async ({ ctx, params, query, body }) => putSecret(ctx, params.name, body, companyIdOf(query)),
  deleteCompanySecret: async ({ ctx, params, query, reply }) => {
    await deleteSecret(ctx, params.name, companyIdOf(query));
    return reply.code(204).send();
  },
} satisfies HandlerMap;
