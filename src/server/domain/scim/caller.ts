// Who is calling the SCIM endpoints: a company's identity provider, known by the company's SCIM
// token alone (no session, no same-origin check: Okta and Entra ID are servers). An unknown or
// revoked token, or one of an inactive company, is 401; a company whose plan lost SCIM is 403;
// on another company's address 403. Each token is throttled in this process (a flood guard, as
// for incoming alerts). Changes are audited with the SCIM source named (`source: 'scim'` and
// the token's id), since no person signed in to make them.
import type { AuditEventName } from '../../../lib/audit-events.ts';
import { classifyHost } from '../../../lib/hosts.ts';
import type { Services } from '../context.ts';
import type { DbScope } from '../../db/scope.ts';
import { scimRepo, type ScimTokenAuthRow } from '../../db/repositories/scim-repo.ts';
import { recordAudit } from '../audit/record.ts';
import { SlidingWindow } from '../auth/throttle.ts';
import { hashSecret } from '../auth/tokens.ts';
import { scimError } from './errors.ts';
import { planAllowsScim, SCIM_PLAN_REQUIRED } from './plan.ts';
import { SCIM_TOKEN_PREFIX } from './settings.ts';

const INVALID = 'This SCIM token is invalid or was revoked. Create a new one on the Settings screen.';
/**
 * Calls per token a minute. Entra ID's provisioning cycle and Okta's pushes stay well below (Okta
 * documents its own outbound limit of 600 SCIM requests a minute per app); more is a loop.
 */
const PER_MINUTE = 1200;
/** last_used_at is written at most once a minute per token: a sync cycle must not write on every call. */
const TOUCH_EVERY_MS = 60_000;

declare module '../context.ts' {
  interface ProcessState {
    /** Recent SCIM calls per token, this process (scim/caller.ts): a flood guard */
    scimCalls?: SlidingWindow;
  }
}

export interface ScimCaller {
  services: Services;
  companyId: string;
  tokenId: string;
  /** `https://acme.example.com/scim/v2`: where resources are, for `meta.location` */
  base: string;
  ip: string;
  userAgent: string;
}

export async function scimCaller(
  services: Services,
  presented: string | null,
  where: { host: string; base: string; ip: string; userAgent: string },
): Promise<ScimCaller> {
  if (presented === null) throw scimError('unauthorized', 'A SCIM token is required: Authorization: Bearer sws_…');
  if (!presented.startsWith(SCIM_TOKEN_PREFIX) || presented.length > 200) throw scimError('unauthorized', INVALID);
  const row: ScimTokenAuthRow | undefined = await scimRepo(services.db).findTokenByHash(hashSecret(presented));
  if (!row) throw scimError('unauthorized', INVALID);
  if (!row.company_active) throw scimError('unauthorized', 'The company of this SCIM token is inactive.');
  const place = classifyHost(where.host, services.config.productDomain);
  if (place.kind === 'tenant' && place.subdomain !== row.company_subdomain)
    throw scimError('forbidden', "This SCIM token belongs to another company: use your company's SCIM base URL.");
  if (!planAllowsScim(row.company_plan)) throw scimError('forbidden', SCIM_PLAN_REQUIRED);
  const now = services.now();
  services.state.scimCalls ??= new SlidingWindow(PER_MINUTE, 60_000);
  const calls = services.state.scimCalls;
  const retryAfter = calls.retryAfter(row.id, now);
  if (retryAfter > 0)
    throw scimError('rate_limited', `Too many SCIM requests with this token. Try again in ${retryAfter} s.`, 'tooMany', retryAfter);
  calls.hit(row.id, now);
  if (row.last_used_at === null || now - row.last_used_at >= TOUCH_EVERY_MS) await scimRepo(services.db).touchToken(row.id, now);
  return { services, companyId: row.company_id, tokenId: row.id, base: where.base, ip: where.ip, userAgent: where.userAgent };
}

/** An audit event of a SCIM change, in the transaction of the change. */
export function scimAudit(db: DbScope, caller: ScimCaller, event: AuditEventName, details: Record<string, unknown>): Promise<void> {
  return recordAudit(db, caller.services, {
    event,
    details: { source: 'scim', token_id: caller.tokenId, ...details },
    userId: null,
    userRole: 'scim',
    tenantId: caller.companyId,
    sessionId: `scim:${caller.tokenId}`,
    userAgent: caller.userAgent,
    ip: caller.ip,
    source: 'server',
  });
}
