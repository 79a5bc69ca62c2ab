// Incoming-alert sources: a company's Alertmanager, Grafana or script that opens incidents here.
// Company admins manage their own company's (super admins any company's, naming it at creation);
// viewers see none, like the alert channels: a source decides what reaches the status page.
// Each source has its own token (`swi_` + 256 random bits), answered once at creation and at
// rotation; only its SHA-256 is stored, so a rotation refuses the old token at its next call.
// Every change is audited (settings_update, naming the source) in the transaction that makes it.
import { incomingSourcesRepo, type IncomingSourceRow } from '../../db/repositories/incoming-sources-repo.ts';
import { companiesRepo } from '../../db/repositories/companies-repo.ts';
import { monitorsRepo } from '../../db/repositories/monitors-repo.ts';
import type { IncomingKind } from '../../db/schema/incoming.ts';
import { withTransaction } from '../../db/scope.ts';
import { plainTextProblem } from '../../../lib/plain-text.ts';
import { IMPACTS, type Impact } from '../../../lib/status.ts';
import { auditFromCtx } from '../audit/record.ts';
import { hashSecret, newSecret } from '../auth/tokens.ts';
import { companyScope, requirePermission } from '../authz.ts';
import type { Ctx } from '../context.ts';
import { DomainError, notFound } from '../errors.ts';
import { newId, toIso, toIsoOrNull } from '../ids.ts';
import { ALERT_LEVELS, type AlertLevel, DEFAULT_SEVERITY_MAP } from './severity.ts';

export const INCOMING_TOKEN_PREFIX = 'swi_';
export const INCOMING_KINDS: readonly IncomingKind[] = ['alertmanager', 'grafana', 'generic'];
/** Sources per company: one per tool and environment is the use; this bounds a runaway script. */
const MAX_SOURCES = 50;
const NAME_MAX = 100;
const MAP_ENTRIES_MAX = 50;

export interface SourceInput {
  name?: string;
  kind?: IncomingKind;
  component_ids?: string[];
  component_impact?: Impact;
  severity_label?: string;
  severity_map?: Record<string, AlertLevel>;
  default_severity?: AlertLevel;
  company_id?: string | null;
}

const invalid = (field: string, message: string) => new DomainError('validation', message, { fields: { [field]: message } });

/** The route a source's tool posts to (the token in the header, or appended to the path). */
export const receivePath = (kind: IncomingKind) => `/api/v1/incoming/${kind}`;

export function presentSource(row: IncomingSourceRow) {
  return {
    id: row.id,
    company_id: row.company_id,
    name: row.name,
    kind: row.kind,
    component_ids: JSON.parse(row.component_ids) as string[],
    component_impact: row.component_impact as Impact,
    severity_label: row.severity_label,
    severity_map: JSON.parse(row.severity_map) as Record<string, AlertLevel>,
    default_severity: row.default_severity as AlertLevel,
    receive_path: receivePath(row.kind),
    token_prefix: row.token_prefix,
    token_rotated_at: toIso(row.token_rotated_at),
    last_received_at: toIsoOrNull(row.last_received_at),
    created_at: toIso(row.created_at),
    updated_at: toIso(row.updated_at),
  };
}

async function ownSource(ctx: Ctx, id: string): Promise<IncomingSourceRow> {
  const row = await incomingSourcesRepo(ctx.services.db).find(id, companyScope(ctx, null));
  if (!row) throw notFound('Incoming source');
  return row;
}

export async function listSources(ctx: Ctx, q: { tenant?: string }) {
  requirePermission(ctx, 'view', 'settings', 'view incoming alert sources');
  return (await incomingSourcesRepo(ctx.services.db).list(companyScope(ctx, q.tenant))).map(presentSource);
}

export async function getSource(ctx: Ctx, id: string) {
  requirePermission(ctx, 'view', 'settings', 'view incoming alert sources');
  return presentSource(await ownSource(ctx, id));
}

function mintToken() {
  const token = `${INCOMING_TOKEN_PREFIX}${newSecret().value}`;
  return { token, token_hash: hashSecret(token), token_prefix: token.slice(0, 10) };
}

export async function createSource(ctx: Ctx, input: SourceInput) {
  const actor = requirePermission(ctx, 'create', 'settings', 'create incoming alert sources');
  const s = ctx.services;
  const companyId = actor.role === 'super_admin' ? input.company_id : companyScope(ctx, null);
  if (!companyId) throw invalid('company_id', 'Choose the company this source belongs to');
  if (!(await companiesRepo(s.db).findById(companyId))) throw invalid('company_id', 'Company not found');
  if (!input.kind || !INCOMING_KINDS.includes(input.kind))
    throw invalid('kind', 'Choose what sends the alerts: alertmanager, grafana or generic');
  const f = await validFields(ctx, companyId, input);
  if (!f.name) throw invalid('name', 'Name is required');
  if ((await incomingSourcesRepo(s.db).count(companyId)) >= MAX_SOURCES)
    throw new DomainError(
      'limit_exceeded',
      `A company has at most ${MAX_SOURCES} incoming alert sources. Delete one it no longer uses first.`,
    );
  const now = s.now();
  const { token, ...stored } = mintToken();
  const row: IncomingSourceRow = {
    id: newId(),
    company_id: companyId,
    name: f.name,
    kind: input.kind,
    ...stored,
    component_ids: JSON.stringify(f.componentIds ?? []),
    component_impact: f.impact ?? 'major',
    severity_label: f.severityLabel ?? 'severity',
    severity_map: JSON.stringify(f.severityMap ?? DEFAULT_SEVERITY_MAP),
    default_severity: f.defaultSeverity ?? 'high',
    last_received_at: null,
    token_rotated_at: now,
    created_by: actor.userId,
    created_at: now,
    updated_at: now,
  };
  await withTransaction(s.db, async (tx) => {
    await incomingSourcesRepo(tx).insert(row);
    await auditFromCtx(
      tx,
      ctx,
      'settings_update',
      { change: 'incoming_source_create', source_id: row.id, name: row.name, kind: row.kind },
      undefined,
      companyId,
    );
  });
  // The token is shown once, here (and after a rotation).
  return { ...presentSource(row), token };
}

export async function updateSource(ctx: Ctx, id: string, input: SourceInput) {
  requirePermission(ctx, 'update', 'settings', 'change incoming alert sources');
  const row = await ownSource(ctx, id);
  if (input.kind !== undefined && input.kind !== row.kind) throw invalid('kind', 'The kind of a source cannot change; create a new source');
  const f = await validFields(ctx, row.company_id, input);
  const patch: Partial<IncomingSourceRow> = { updated_at: ctx.services.now() };
  if (f.name !== undefined) {
    if (!f.name) throw invalid('name', 'Name is required');
    patch.name = f.name;
  }
  if (f.componentIds !== undefined) patch.component_ids = JSON.stringify(f.componentIds);
  if (f.impact !== undefined) patch.component_impact = f.impact;
  if (f.severityLabel !== undefined) patch.severity_label = f.severityLabel;
  if (f.severityMap !== undefined) patch.severity_map = JSON.stringify(f.severityMap);
  if (f.defaultSeverity !== undefined) patch.default_severity = f.defaultSeverity;
  await withTransaction(ctx.services.db, async (tx) => {
    await incomingSourcesRepo(tx).update(row.id, patch);
    await auditFromCtx(
      tx,
      ctx,
      'settings_update',
      { change: 'incoming_source_update', source_id: row.id, name: patch.name ?? row.name },
      undefined,
      row.company_id,
    );
  });
  return presentSource({ ...row, ...patch });
}

/**
 * Deleting a source refuses its token at once; the incidents it opened stay, for people to
 * resolve. Company admins may (settings' `update`): a source is a credential they hand out, and
 * taking one back must not wait for a super admin.
 */
export async function deleteSource(ctx: Ctx, id: string): Promise<void> {
  requirePermission(ctx, 'update', 'settings', 'delete incoming alert sources');
  const row = await ownSource(ctx, id);
  await withTransaction(ctx.services.db, async (tx) => {
    await incomingSourcesRepo(tx).delete(row.id);
    await auditFromCtx(
      tx,
      ctx,
      'settings_update',
      { change: 'incoming_source_delete', source_id: row.id, name: row.name },
      undefined,
      row.company_id,
    );
  });
}

export async function rotateSourceToken(ctx: Ctx, id: string) {
  requirePermission(ctx, 'update', 'settings', 'change incoming alert sources');
  const row = await ownSource(ctx, id);
  const now = ctx.services.now();
  const { token, ...stored } = mintToken();
  const patch = { ...stored, token_rotated_at: now, updated_at: now };
  await withTransaction(ctx.services.db, async (tx) => {
    await incomingSourcesRepo(tx).update(row.id, patch);
    await auditFromCtx(
      tx,
      ctx,
      'settings_update',
      { change: 'incoming_source_token_rotate', source_id: row.id, name: row.name },
      undefined,
      row.company_id,
    );
  });
  return { ...presentSource({ ...row, ...patch }), token };
}

async function validFields(ctx: Ctx, companyId: string, input: SourceInput) {
  const name = input.name?.trim();
  const nameProblem = plainTextProblem('Name', name);
  if (nameProblem) throw invalid('name', nameProblem);
  if (name && name.length > NAME_MAX) throw invalid('name', `A name has at most ${NAME_MAX} characters`);
  let componentIds: string[] | undefined;
  if (input.component_ids !== undefined) {
    componentIds = [...new Set(input.component_ids)];
    const monitors = monitorsRepo(ctx.services.db);
    for (const mid of componentIds)
      if (!(await monitors.findById(mid, companyId))) throw invalid('component_ids', `Component not found: ${mid}`);
  }
  if (input.component_impact !== undefined && !IMPACTS.includes(input.component_impact))
    throw invalid('component_impact', 'Choose minor, major or critical');
  const severityLabel = input.severity_label?.trim();
  if (severityLabel !== undefined && !/^[A-Za-z_][A-Za-z0-9_]{0,99}$/.test(severityLabel))
    throw invalid('severity_label', 'A label name is letters, digits and underscores, not starting with a digit');
  let severityMap: Record<string, AlertLevel> | undefined;
  if (input.severity_map !== undefined) {
    const entries = Object.entries(input.severity_map);
    if (entries.length > MAP_ENTRIES_MAX) throw invalid('severity_map', `At most ${MAP_ENTRIES_MAX} values`);
    for (const [, level] of entries) if (!ALERT_LEVELS.includes(level)) throw invalid('severity_map', `Unknown severity: ${level}`);
    severityMap = Object.fromEntries(entries.map(([k, v]) => [k.trim().toLowerCase(), v]));
  }
  if (input.default_severity !== undefined && !ALERT_LEVELS.includes(input.default_severity))
    throw invalid('default_severity', 'Choose critical, high, medium, low or info');
  return { name, componentIds, impact: input.component_impact, severityLabel, severityMap, defaultSeverity: input.default_severity };
}
