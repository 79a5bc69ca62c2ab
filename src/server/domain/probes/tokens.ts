// Probe tokens (issue 27): what a location's probes present (`Authorization: Bearer swp_…`).
// A token is `swp_` + 256 random bits, answered once at creation; only its SHA-256 is stored.
// Revoking one refuses it on the probe's next call, since every call looks the hash up.
// Tokens are minted and revoked from a signed-in session (an API token may not mint credentials)
// by whoever manages the location: a super admin for a public one, the company's admins for
// their private one; a location the caller cannot see answers 404.
import { LOCAL_LOCATION } from '../../../lib/probe-locations.ts';
import { probeLocationsRepo, type ProbeTokenRow } from '../../db/repositories/probe-locations-repo.ts';
import { withTransaction } from '../../db/scope.ts';
import { auditFromCtx } from '../audit/record.ts';
import { hashSecret, newSecret } from '../auth/tokens.ts';
import { requireActor } from '../authz.ts';
import type { Actor, Ctx } from '../context.ts';
import { DomainError, notFound } from '../errors.ts';
import { newId } from '../ids.ts';
import { BUILTIN_READ_ONLY, mayManageTokens, visibleLocation } from './locations.ts';
import { type ProbeTokenView, tokenView } from './present.ts';

export const PROBE_TOKEN_PREFIX = 'swp_';
/** Live tokens per location: one per probe host is the use; this bounds a runaway script. */
const MAX_LIVE_TOKENS = 50;
const TOKEN_NAME_MAX = 100;

async function managedLocation(ctx: Ctx, id: string) {
  const actor = requireActor(ctx);
  if (actor.apiToken) throw new DomainError('forbidden', 'API tokens cannot manage probe tokens. Sign in to the console.');
  if (id === LOCAL_LOCATION.id) throw new DomainError('forbidden', BUILTIN_READ_ONLY);
  const loc = await visibleLocation(ctx, actor, id);
  if (!mayManageTokens(actor, loc)) throw new DomainError('forbidden', refusal(actor, loc.company_id));
  return loc;
}

function refusal(actor: Actor, companyId: string | null): string {
  if (companyId === null) return 'Only a super admin manages the tokens of a public location.';
  if (actor.role === 'super_admin') return "The tokens of a private location are managed by its company's admins.";
  return 'You do not have permission to manage probe tokens.';
}

export async function createProbeToken(ctx: Ctx, locationId: string, input: { name: string }): Promise<ProbeTokenView & { token: string }> {
  const loc = await managedLocation(ctx, locationId);
  const name = input.name.trim();
  if (!name) throw new DomainError('validation', 'Name is required.', { fields: { name: 'Name is required.' } });
  if (name.length > TOKEN_NAME_MAX) {
    const msg = `A name has at most ${TOKEN_NAME_MAX} characters.`;
    throw new DomainError('validation', msg, { fields: { name: msg } });
  }
  const { services } = ctx;
  if ((await probeLocationsRepo(services.db).countLiveTokens(loc.id)) >= MAX_LIVE_TOKENS) {
    throw new DomainError('limit_exceeded', `This location has ${MAX_LIVE_TOKENS} tokens. Revoke one it no longer uses first.`);
  }
  const token = `${PROBE_TOKEN_PREFIX}${newSecret().value}`;
  const row: ProbeTokenRow = {
    id: newId(),
    location_id: loc.id,
    name,
    token_hash: hashSecret(token),
    token_prefix: token.slice(0, 12),
    created_at: services.now(),
    created_by: ctx.actor?.userId ?? null,
    last_used_at: null,
    revoked_at: null,
  };
  await withTransaction(services.db, async (tx) => {
    await probeLocationsRepo(tx).insertToken(row);
    await auditFromCtx(
      tx,
      ctx,
      'probe_token_create',
      { location_id: loc.id, slug: loc.slug, token_id: row.id, name },
      undefined,
      loc.company_id,
    );
  });
  return { ...tokenView(row), token };
}

export async function revokeProbeToken(ctx: Ctx, locationId: string, tokenId: string): Promise<void> {
  const loc = await managedLocation(ctx, locationId);
  await withTransaction(ctx.services.db, async (tx) => {
    if ((await probeLocationsRepo(tx).revokeToken(loc.id, tokenId, ctx.services.now())) === 0) throw notFound('Probe token');
    await auditFromCtx(
      tx,
      ctx,
      'probe_token_revoke',
      { location_id: loc.id, slug: loc.slug, token_id: tokenId },
      undefined,
      loc.company_id,
    );
  });
}
