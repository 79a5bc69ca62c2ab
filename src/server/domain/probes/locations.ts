// Probe locations (issue 27): where checks run from. Public locations are the super admin's,
// offered to every company; a private location belongs to one company, is created by its admin
// and is invisible to every other company (another company's location by id answers 404, as
// every object of another tenant does). The built-in engine is the location `local`: listed
// first, never stored (present.ts), never deleted, never given tokens.
// Deleting is the super admin's right alone (spec section 6: company admins never delete); a
// company admin stops a private location by revoking its tokens.
import { can } from '../../../lib/permissions.ts';
import { BROWSER_PROBE_SEEN_MS, LOCAL_LOCATION, LOCATION_NAME_MAX, PROBE_ONLINE_MS, slugProblem } from '../../../lib/probe-locations.ts';
import { type LocationScope, probeLocationsRepo, type ProbeLocationRow } from '../../db/repositories/probe-locations-repo.ts';
import { probesRepo } from '../../db/repositories/probes-repo.ts';
import { withTransaction } from '../../db/scope.ts';
import { isUniqueViolation } from '../../db/unique-violation.ts';
import { auditFromCtx } from '../audit/record.ts';
import { requireActor, requirePermission } from '../authz.ts';
import type { Actor, Ctx } from '../context.ts';
import { DomainError, notFound } from '../errors.ts';
import { newId } from '../ids.ts';
import { dropLocationSlug } from '../monitors/locations.ts';
import {
  localLocationView,
  locationView,
  type ProbeLocationView,
  type ProbeTokenView,
  type ProbeView,
  probeView,
  type Rights,
  tokenView,
} from './present.ts';

export const BUILTIN_READ_ONLY = 'The built-in location runs inside the platform: it cannot be deleted and needs no tokens.';

export function scopeOf(actor: Actor): LocationScope {
  if (actor.role === 'super_admin') return { all: true };
  if (!actor.companyId) throw new DomainError('forbidden', 'Your account is not assigned to a company.');
  return { all: false, companyId: actor.companyId };
}

/** Public locations are managed by super admins; a private one by its own company's admins only. */
export function mayManageTokens(actor: Actor, loc: Pick<ProbeLocationRow, 'company_id'>): boolean {
  if (loc.company_id === null) return actor.role === 'super_admin';
  return actor.companyId === loc.company_id && can(actor.role, 'create', 'settings');
}

function rightsOf(actor: Actor, loc: Pick<ProbeLocationRow, 'company_id'>): Rights {
  return { canManageTokens: mayManageTokens(actor, loc), canDelete: can(actor.role, 'delete', 'settings') };
}

/** A location the actor may see, or 404 (another company's private location looks absent). */
export async function visibleLocation(ctx: Ctx, actor: Actor, id: string) {
  const row = await probeLocationsRepo(ctx.services.db).find(scopeOf(actor), id);
  if (!row) throw notFound('Probe location');
  return row;
}

export async function listProbeLocations(ctx: Ctx): Promise<ProbeLocationView[]> {
  const actor = requireActor(ctx);
  const now = ctx.services.now();
  const rows = await probeLocationsRepo(ctx.services.db).list(scopeOf(actor), now - PROBE_ONLINE_MS);
  const browsers = await probesRepo(ctx.services.db).locationsWith('browser', now - BROWSER_PROBE_SEEN_MS);
  return [
    localLocationView(),
    ...rows.map((r) =>
      locationView(r, { total: r.probes_total, online: r.probes_online }, rightsOf(actor, r), browsers.has(Number(r.num))),
    ),
  ];
}

export interface ProbeLocationDetail extends ProbeLocationView {
  probes: ProbeView[];
  tokens: ProbeTokenView[];
}

export async function getProbeLocation(ctx: Ctx, id: string): Promise<ProbeLocationDetail> {
  const actor = requireActor(ctx);
  if (id === LOCAL_LOCATION.id) return { ...localLocationView(), probes: [], tokens: [] };
  const row = await visibleLocation(ctx, actor, id);
  const now = ctx.services.now();
  const rows = await probesRepo(ctx.services.db).listForLocation(row.id);
  const probes = rows.map((p) => probeView(p, now));
  const browserChecks = rows.some((p) => now - p.last_seen_at <= BROWSER_PROBE_SEEN_MS && p.capabilities.split(',').includes('browser'));
  const rights = rightsOf(actor, row);
  // Tokens are shown (names, never secrets) to those who manage them; the others see the probes.
  const tokens = rights.canManageTokens ? (await probeLocationsRepo(ctx.services.db).listTokens(row.id)).map(tokenView) : [];
  const counts = { total: probes.length, online: probes.filter((p) => p.online).length };
  return { ...locationView(row, counts, rights, browserChecks), probes, tokens };
}

export async function createProbeLocation(ctx: Ctx, input: { name: string; slug: string; private: boolean }): Promise<ProbeLocationView> {
  const actor = requireActor(ctx);
  let companyId: string | null;
  if (input.private) {
    if (actor.role === 'super_admin') {
      throw new DomainError('forbidden', "A private location belongs to a company: that company's admins create it.");
    }
    requirePermission(ctx, 'create', 'settings', 'create probe locations');
    const scope = scopeOf(actor);
    companyId = scope.all ? null : scope.companyId;
  } else {
    if (actor.role !== 'super_admin') throw new DomainError('forbidden', 'Only a super admin creates public locations.');
    companyId = null;
  }
  const name = input.name.trim();
  const slug = input.slug.trim();
  const fields: Record<string, string> = {};
  if (!name) fields.name = 'Name is required.';
  else if (name.length > LOCATION_NAME_MAX) fields.name = `A name has at most ${LOCATION_NAME_MAX} characters.`;
  const bad = slugProblem(slug);
  if (bad) fields.slug = bad;
  if (Object.keys(fields).length) throw new DomainError('validation', Object.values(fields).join(' '), { fields });
  const taken = () =>
    new DomainError('conflict', `A location with the slug "${slug}" exists.`, { fields: { slug: 'This slug is taken. Choose another.' } });
  const repo = probeLocationsRepo(ctx.services.db);
  // Monitors will name locations by slug, so a private slug may not shadow a public one in its
  // company's list, nor a new public slug any company's private one.
  if (await repo.findClash(slug, companyId)) throw taken();
  const fresh = {
    id: newId(),
    slug,
    name,
    company_id: companyId,
    created_at: ctx.services.now(),
    created_by: actor.userId,
  };
  let num = 0;
  try {
    await withTransaction(ctx.services.db, async (tx) => {
      num = await probeLocationsRepo(tx).insert(fresh);
      await auditFromCtx(
        tx,
        ctx,
        'probe_location_create',
        { location_id: fresh.id, slug, name, private: input.private },
        undefined,
        companyId,
      );
    });
  } catch (e) {
    if (isUniqueViolation(e)) throw taken();
    throw e;
  }
  const row: ProbeLocationRow = { ...fresh, num, offline_since: null, flagged_since: null };
  const companyName = companyId === null ? null : await companyNameOf(ctx, row.id);
  return locationView({ ...row, company_name: companyName }, { total: 0, online: 0 }, rightsOf(actor, row), false);
}

async function companyNameOf(ctx: Ctx, id: string): Promise<string | null> {
  return (await probeLocationsRepo(ctx.services.db).find({ all: true }, id))?.company_name ?? null;
}

export async function deleteProbeLocation(ctx: Ctx, id: string): Promise<void> {
  const actor = requireActor(ctx);
  if (id === LOCAL_LOCATION.id) throw new DomainError('forbidden', BUILTIN_READ_ONLY);
  const row = await visibleLocation(ctx, actor, id);
  requirePermission(ctx, 'delete', 'settings', 'delete probe locations');
  await withTransaction(ctx.services.db, async (tx) => {
    // Monitors naming it drop its slug (issue 27 item 3): a list naming a deleted location would refuse every later edit.
    const monitors = await dropLocationSlug(tx, row.slug, row.company_id, ctx.services.now());
    await probeLocationsRepo(tx).delete(row.id);
    await auditFromCtx(tx, ctx, 'probe_location_delete', { location_id: row.id, slug: row.slug, monitors }, undefined, row.company_id);
  });
}
