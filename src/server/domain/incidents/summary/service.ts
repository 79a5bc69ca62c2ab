// Incident summaries by the operator's language model (issue 33, item 3): written from the
// incident's evidence panel only, for companies that opted in, within their monthly token budget.
// The budget is checked twice: the call's most possible tokens are reserved before it is made (a
// call that does not fit is never made), and the reservation is settled with the answer's usage.
import type { IncidentEvidence } from '../../../../lib/incident-evidence.ts';
import { incidentsRepo, type IncidentWithTenant } from '../../../db/repositories/incidents-repo.ts';
import { incidentSummariesRepo, type IncidentSummaryRow } from '../../../db/repositories/incident-summaries-repo.ts';
import type { SummaryTrigger } from '../../../db/schema/incident-summaries.ts';
import { withTransaction } from '../../../db/scope.ts';
import { dnsResolver } from '../../../net/dns-lookup.ts';
import { ChatCallFailed, chatCompletion } from '../../../net/chat-completions.ts';
import { auditFromCtx } from '../../audit/record.ts';
import { companyScope, requirePermission } from '../../authz.ts';
import type { Ctx, Services } from '../../context.ts';
import { DomainError, notFound } from '../../errors.ts';
import { newId, toIso, toIsoOrNull } from '../../ids.ts';
import { estimateTokens, evidenceForPrompt, summaryMessages, usageMonth } from './prompt.ts';

export const SUMMARIES_OFF =
  'Incident summaries are off: the operator has not configured a language model (LLM_BASE_URL, LLM_API_KEY and LLM_MODEL).';
export const NOT_OPTED_IN = 'Incident summaries are not turned on for this company: a company admin turns them on in Settings.';

/** Companies with a call under way, per services object: one at a time per company. */
const inFlight = new WeakMap<Services, Set<string>>();

function presentSummary(row: IncidentSummaryRow) {
  return {
    incident_id: row.incident_id,
    text: row.answer,
    model: row.model,
    trigger: row.trigger,
    requested_by: row.requested_by,
    created_at: toIso(row.created_at),
    evidence_updated_at: toIso(row.evidence_updated_at),
    evidence: JSON.parse(row.evidence) as IncidentEvidence,
    prompt: JSON.parse(row.prompt) as Array<{ role: 'system' | 'user'; content: string }>,
    usage: { prompt_tokens: row.prompt_tokens, completion_tokens: row.completion_tokens, total_tokens: row.total_tokens },
  };
}

/** The company's budget this month: its own, or the operator's default. */
function budgetOf(services: Services, own: number | null | undefined): number {
  return own ?? services.config.llm?.monthlyTokens ?? 0;
}

async function incidentOf(ctx: Ctx, id: string): Promise<IncidentWithTenant> {
  const i = await incidentsRepo(ctx.services.db).findById(id, companyScope(ctx, null));
  if (!i) throw notFound('Incident');
  return i;
}

/** GET /incidents/{id}/summary: the newest summary, with the prompt and evidence it was written from. */
export async function getIncidentSummary(ctx: Ctx, id: string) {
  requirePermission(ctx, 'view', 'monitors', 'view incidents');
  const i = await incidentOf(ctx, id);
  const row = await incidentSummariesRepo(ctx.services.db).latest(i.id, i.company_id);
  if (row) return presentSummary(row);
  if (!ctx.services.config.llm) throw new DomainError('not_found', `This incident has no summary. ${SUMMARIES_OFF}`);
  const settings = await incidentSummariesRepo(ctx.services.db).settings(i.company_id);
  if (!settings?.enabled) throw new DomainError('not_found', `This incident has no summary. ${NOT_OPTED_IN}`);
  throw new DomainError('not_found', 'This incident has no summary yet.');
}

/** POST /incidents/{id}/summary: writes a summary now (company admins). */
export async function requestIncidentSummary(ctx: Ctx, id: string) {
  const actor = requirePermission(ctx, 'update', 'monitors', 'write incident summaries');
  const i = await incidentOf(ctx, id);
  const outcome = await writeSummary(ctx.services, i, 'request', actor.userId);
  if (!outcome.ok) throw outcome.error;
  return presentSummary(outcome.row);
}

/**
 * For the evidence builder: writes a summary when the evidence of a company's incident was first
 * built or updated, if the company opted in, the findings changed since the last summary, and the
 * budget allows; otherwise does nothing. Never throws (the builder need not wait for it, or care):
 * answers a line for the log when something was refused or failed, else undefined.
 */
export async function summarizeOnEvidence(services: Services, companyId: string, incidentId: string): Promise<string | undefined> {
  try {
    if (!services.config.llm) return undefined;
    const repo = incidentSummariesRepo(services.db);
    const settings = await repo.settings(companyId);
    if (!settings?.enabled) return undefined;
    const i = await incidentsRepo(services.db).findById(incidentId, companyId);
    if (!i) return undefined;
    // An update that changed no finding has nothing new for the model: no call, no tokens.
    const raw = services.loadEvidence ? await services.loadEvidence(companyId, incidentId) : null;
    const latest = await repo.latest(i.id, companyId);
    if (raw && latest && sameFindings(evidenceForPrompt(raw), JSON.parse(latest.evidence) as IncidentEvidence)) return undefined;
    const outcome = await writeSummary(services, i, 'evidence', null);
    return outcome.ok ? undefined : `incident summary of ${incidentId}: ${outcome.error.detail}`;
  } catch (e) {
    return `incident summary of ${incidentId} failed: ${e instanceof Error ? e.message : String(e)}`;
  }
}

const sameFindings = (a: IncidentEvidence, b: IncidentEvidence) => a.line === b.line && JSON.stringify(a.items) === JSON.stringify(b.items);

type Outcome = { ok: true; row: IncidentSummaryRow } | { ok: false; error: DomainError };

async function writeSummary(services: Services, i: IncidentWithTenant, trigger: SummaryTrigger, by: string | null): Promise<Outcome> {
  const llm = services.config.llm;
  if (!llm) return { ok: false, error: new DomainError('conflict', SUMMARIES_OFF) };
  const repo = incidentSummariesRepo(services.db);
  const settings = await repo.settings(i.company_id);
  if (!settings?.enabled) return { ok: false, error: new DomainError('conflict', NOT_OPTED_IN) };
  const raw = services.loadEvidence ? await services.loadEvidence(i.company_id, i.id) : null;
  // The port answers for this company's incident; anything else is never sent.
  if (!raw || raw.incident_id !== i.id)
    return { ok: false, error: new DomainError('conflict', 'This incident has no evidence panel yet; a summary is written from it only.') };
  const evidence = evidenceForPrompt(raw);
  const messages = summaryMessages(
    { title: i.title, monitorName: i.monitor_name, startedAt: toIso(i.started_at), resolvedAt: toIsoOrNull(i.resolved_at) },
    evidence,
  );
  const estimate = estimateTokens(messages, llm.maxTokens);
  const budget = budgetOf(services, settings.monthly_tokens);
  const running = inFlight.get(services) ?? new Set<string>();
  inFlight.set(services, running);
  if (running.has(i.company_id))
    return {
      ok: false,
      error: new DomainError('rate_limited', 'A summary is being written for this company; try again in a minute.', { retryAfter: 60 }),
    };
  const month = usageMonth(services.now());
  if (!(await repo.reserve(i.company_id, month, estimate, budget))) {
    const used = (await repo.usage(i.company_id, month)).tokens;
    return {
      ok: false,
      error: new DomainError(
        'limit_exceeded',
        `This company's language model budget for ${month} is used up: ${used} of ${budget} tokens used, and a summary may need up to ${estimate}. It starts again on the 1st (UTC); a company admin can raise it in Settings up to the operator's limit.`,
      ),
    };
  }
  running.add(i.company_id);
  try {
    const answer = await chatCompletion(llm, messages, llm.maxTokens, services.monitoring?.resolve ?? dnsResolver());
    // An endpoint that reports no usage is charged the estimate.
    const used = answer.usage.total_tokens > 0 ? answer.usage.total_tokens : estimate;
    const row: IncidentSummaryRow = {
      id: newId(),
      company_id: i.company_id,
      incident_id: i.id,
      trigger,
      requested_by: by,
      model: llm.model,
      prompt: JSON.stringify(messages),
      evidence: JSON.stringify(evidence),
      evidence_updated_at: Date.parse(evidence.updated_at) || services.now(),
      answer: answer.content.slice(0, 20_000),
      prompt_tokens: answer.usage.prompt_tokens,
      completion_tokens: answer.usage.completion_tokens,
      total_tokens: used,
      created_at: services.now(),
    };
    await withTransaction(services.db, async (tx) => {
      await incidentSummariesRepo(tx).insert(row);
      await incidentSummariesRepo(tx).adjust(i.company_id, month, used - estimate);
    });
    return { ok: true, row };
  } catch (e) {
    await repo.adjust(i.company_id, month, -estimate, -1);
    if (!(e instanceof ChatCallFailed)) throw e;
    if (e.status === 429)
      return { ok: false, error: new DomainError('rate_limited', e.message, { retryAfter: e.retryAfterSeconds ?? 60 }) };
    return { ok: false, error: new DomainError('unavailable', e.message) };
  } finally {
    running.delete(i.company_id);
  }
}

/** GET /company/incident-summaries: whether summaries are available, the opt-in, and the month's usage. */
export async function getSummarySettings(ctx: Ctx, q: { tenant?: string }) {
  requirePermission(ctx, 'view', 'settings', 'view the incident summary settings');
  const companyId = companyScope(ctx, q.tenant);
  if (!companyId) throw new DomainError('validation', 'Choose a company', { fields: { tenant: 'Company is required' } });
  return presentSettings(ctx.services, companyId);
}

async function presentSettings(services: Services, companyId: string) {
  const repo = incidentSummariesRepo(services.db);
  const settings = await repo.settings(companyId);
  const month = usageMonth(services.now());
  const usage = await repo.usage(companyId, month);
  const llm = services.config.llm;
  return {
    available: llm !== null,
    model: llm?.model ?? null,
    enabled: settings?.enabled ?? false,
    monthly_tokens: llm ? budgetOf(services, settings?.monthly_tokens) : 0,
    own_monthly_tokens: settings?.monthly_tokens ?? null,
    operator_monthly_tokens: llm?.monthlyTokens ?? 0,
    month,
    used_tokens: usage.tokens,
    calls: usage.calls,
    updated_at: toIsoOrNull(settings?.updated_at),
  };
}

/** PUT /company/incident-summaries: a company admin opts in or out and may set a lower budget. */
export async function updateSummarySettings(ctx: Ctx, input: { enabled: boolean; monthly_tokens?: number | null }, q: { tenant?: string }) {
  const actor = requirePermission(ctx, 'update', 'settings', 'change the incident summary settings');
  const companyId = companyScope(ctx, q.tenant);
  if (!companyId) throw new DomainError('validation', 'Choose a company', { fields: { tenant: 'Company is required' } });
  const llm = ctx.services.config.llm;
  if (input.enabled && !llm) throw new DomainError('conflict', SUMMARIES_OFF);
  const own = input.monthly_tokens ?? null;
  if (own !== null && llm && own > llm.monthlyTokens)
    throw new DomainError('validation', `At most ${llm.monthlyTokens} tokens a month (the operator's limit)`, {
      fields: { monthly_tokens: `At most ${llm.monthlyTokens} tokens a month (the operator's limit)` },
    });
  const s = ctx.services;
  await withTransaction(s.db, async (tx) => {
    const before = await incidentSummariesRepo(tx).settings(companyId);
    await incidentSummariesRepo(tx).putSettings({
      company_id: companyId,
      enabled: input.enabled,
      monthly_tokens: own,
      updated_at: s.now(),
      updated_by: actor.userId,
    });
    await auditFromCtx(
      tx,
      ctx,
      'settings_update',
      {
        setting: 'incident_summaries',
        enabled: input.enabled,
        monthly_tokens: own,
        before: before ? { enabled: before.enabled, monthly_tokens: before.monthly_tokens } : null,
      },
      undefined,
      companyId,
    );
  });
  return presentSettings(s, companyId);
}
