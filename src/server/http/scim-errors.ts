// SCIM clients read errors as SCIM error bodies (RFC 7644 3.12), not as problem documents: every
// problem answered under /scim/ (a refused token, a validation failure, an unknown route, a
// database outage) is rewritten here, in one place, with the same status and detail. (A path
// over the router's length limit is refused with 414 before any route or hook runs: a problem.) The
// scimType a SCIM verb named rides in the problem's errors (domain/scim/errors.ts); a request
// the document refused before any verb ran is `invalidSyntax`, a conflict `uniqueness`.
import type { FastifyInstance } from 'fastify';
import { SCIM_TYPE_FIELD } from '../domain/scim/errors.ts';

export const SCIM_ERROR_SCHEMA = 'urn:ietf:params:scim:api:messages:2.0:Error';
export const SCIM_MEDIA_TYPE = 'application/scim+json';

interface ProblemLike {
  status?: number;
  detail?: string;
  code?: string;
  errors?: Record<string, string>;
}

function scimTypeOf(p: ProblemLike): string | undefined {
  const named = p.errors?.[SCIM_TYPE_FIELD];
  if (named) return named;
  if (p.code === 'conflict') return 'uniqueness';
  if (p.code === 'validation' && p.errors && Object.keys(p.errors).length > 0) return 'invalidSyntax';
  return undefined;
}

export function registerScimErrors(app: FastifyInstance): void {
  app.addHook('onSend', async (req, reply, payload) => {
    if (!req.url.startsWith('/scim/')) return payload;
    const type = String(reply.getHeader('content-type') ?? '');
    if (!type.startsWith('application/problem+json') || typeof payload !== 'string') return payload;
    let p: ProblemLike;
    try {
      p = JSON.parse(payload) as ProblemLike;
    } catch {
      return payload;
    }
    const scimType = scimTypeOf(p);
    reply.header('content-type', `${SCIM_MEDIA_TYPE}; charset=utf-8`);
    return JSON.stringify({
      schemas: [SCIM_ERROR_SCHEMA],
      status: String(p.status ?? reply.statusCode),
      ...(scimType ? { scimType } : {}),
      detail: p.detail ?? 'The request failed.',
    });
  });
}
