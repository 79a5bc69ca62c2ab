// Escalation policy: one per company, an ordered list of steps "after N minutes without
// acknowledgement, alert these channels and these people". Company admins read and replace their
// company's policy; super admins any company's (by `tenant` / `company_id`); viewers neither.
// The escalation job (jobs/escalation.ts) sends each due step once per incident, until the
// incident is acknowledged or resolved.
import { dueEscalationSteps } from '../../../lib/escalation.ts';
import { alertChannelsRepo } from '../../db/repositories/alert-channels-repo.ts';
import { companiesRepo } from '../../db/repositories/companies-repo.ts';
import { escalationRepo, type EscalationStepRow } from '../../db/repositories/escalation-repo.ts';
import { personalContactsRepo } from '../../db/repositories/personal-contacts-repo.ts';
import { usersRepo } from '../../db/repositories/users-repo.ts';
import { withTransaction } from '../../db/scope.ts';
import { enqueueEscalationStep } from '../../notify/outbox/escalation.ts';
import { companyScope, requirePermission } from '../authz.ts';
import type { Ctx, Services } from '../context.ts';
import { DomainError } from '../errors.ts';
import { newId } from '../ids.ts';

export const MAX_STEPS = 10;
/** One week: a later step would outlive any on-call shift */
export const MAX_AFTER_MINUTES = 10_080;

export interface StepInput {
  after_minutes: number;
  channel_ids: string[];
  user_ids: string[];
}

const invalid = (field: string, message: string) => new DomainError('validation', message, { fields: { [field]: message } });

async function present(s: Services, companyId: string, rows: EscalationStepRow[]) {
  return {
    company_id: companyId,
    people: (await personalContactsRepo(s.db).people(companyId)).map((p) => ({ id: p.id, name: p.full_name })),
    steps: rows.map((r) => ({
      after_minutes: r.after_minutes,
      channel_ids: JSON.parse(r.channel_ids) as string[],
      user_ids: JSON.parse(r.user_ids) as string[],
    })),
  };
}

function companyOf(ctx: Ctx, requested: string | null | undefined): string {
  const companyId = companyScope(ctx, requested);
  if (!companyId) throw invalid('company_id', 'Choose the company whose escalation policy this is');
  return companyId;
}

export async function getEscalationPolicy(ctx: Ctx, q: { tenant?: string }) {
  requirePermission(ctx, 'view', 'settings', 'view the escalation policy');
  const companyId = companyOf(ctx, q.tenant);
  return present(ctx.services, companyId, await escalationRepo(ctx.services.db).steps(companyId));
}

export async function putEscalationPolicy(ctx: Ctx, input: { steps: StepInput[]; company_id?: string | null }) {
  requirePermission(ctx, 'update', 'settings', 'change the escalation policy');
  const companyId = companyOf(ctx, input.company_id);
  const s = ctx.services;
  if (!(await companiesRepo(s.db).findById(companyId))) throw invalid('company_id', 'Company not found');
  if (input.steps.length > MAX_STEPS) throw invalid('steps', `At most ${MAX_STEPS} steps`);
  const channels = new Set((await alertChannelsRepo(s.db).list(companyId)).map((c) => c.id));
  const users = usersRepo(s.db);
  let previous = 0;
  for (const [i, step] of input.steps.entries()) {
    const at = `steps.${i}`;
    if (step.after_minutes < previous) throw invalid(`${at}.after_minutes`, `Step ${i + 1} must come no sooner than step ${i}`);
    previous = step.after_minutes;
    if (step.channel_ids.length + step.user_ids.length === 0)
      throw invalid(at, `Step ${i + 1} alerts nobody: choose a channel or a person`);
    // Another company's channel or user answers like one that does not exist.
    if (step.channel_ids.some((id) => !channels.has(id))) throw invalid(`${at}.channel_ids`, `Step ${i + 1}: alert channel not found`);
    for (const id of step.user_ids) {
      const u = await users.findById(id);
      if (!u || u.company_id !== companyId) throw invalid(`${at}.user_ids`, `Step ${i + 1}: user not found`);
    }
  }
  const now = s.now();
  await escalationRepo(s.db).replace(
    companyId,
    input.steps.map((step, position) => ({
      id: newId(),
      company_id: companyId,
      position,
      after_minutes: step.after_minutes,
      channel_ids: JSON.stringify([...new Set(step.channel_ids)]),
      user_ids: JSON.stringify([...new Set(step.user_ids)]),
      created_at: now,
    })),
  );
  return present(s, companyId, await escalationRepo(s.db).steps(companyId));
}

const BATCH = 500;

/**
 * Sends the escalation steps that are due: for each open, unacknowledged incident, the steps
 * after those already sent whose time has come. Advancing the incident's step count and writing
 * the step's deliveries share one transaction, and the count moves only from the value read, so
 * two runners (or a run that overlaps a slow one) never send a step twice. Answers how many steps.
 */
export async function runEscalations(services: Services, now: number): Promise<number> {
  const repo = escalationRepo(services.db);
  const policies = new Map<string, EscalationStepRow[]>();
  let sent = 0;
  for (const incident of await repo.pendingIncidents(BATCH)) {
    let steps = policies.get(incident.company_id);
    if (!steps) policies.set(incident.company_id, (steps = await repo.steps(incident.company_id)));
    const timed = steps.map((s) => ({ ...s, afterMinutes: s.after_minutes }));
    const due = dueEscalationSteps(incident.started_at, incident.escalated_steps, timed, now);
    if (due.length === 0) continue;
    await withTransaction(services.db, async (tx) => {
      if (!(await escalationRepo(tx).advance(incident.id, incident.escalated_steps, incident.escalated_steps + due.length))) return;
      for (const step of due) await enqueueEscalationStep(tx, incident, step, now);
      sent += due.length;
    });
  }
  return sent;
}
