// Escalation policy: one per company, an ordered list of steps "after N minutes without
// acknowledgement, alert these channels and these people". Company admins read and replace their
// company's policy; super admins any company's (by `tenant` / `company_id`); viewers neither.
// The escalation job (jobs/escalation.ts) sends each due step once per incident, until the
// incident is acknowledged or resolved. A step may name on-call schedules (whoever is on call in
// each when the step falls due is alerted like a named user); the policy may repeat its steps
// (`repeat` more rounds) and alert the whole team at the last step.
import { dueEscalationSteps, escalationRounds } from '../../../lib/escalation.ts';
import { alertChannelsRepo } from '../../db/repositories/alert-channels-repo.ts';
import { companiesRepo } from '../../db/repositories/companies-repo.ts';
import { escalationRepo, type EscalationStepRow } from '../../db/repositories/escalation-repo.ts';
import { personalContactsRepo } from '../../db/repositories/personal-contacts-repo.ts';
import { usersRepo } from '../../db/repositories/users-repo.ts';
import { withTransaction, type DbScope } from '../../db/scope.ts';
import { enqueueEscalationStep, type PagedPerson } from '../../notify/outbox/escalation.ts';
import { schedulesRepo } from '../../db/repositories/schedules-repo.ts';
import { onCallIn } from '../oncall/schedules.ts';
import { companyScope, requirePermission } from '../authz.ts';
import type { Ctx, Services } from '../context.ts';
import { DomainError } from '../errors.ts';
import { newId } from '../ids.ts';

export const MAX_STEPS = 10;
/** One week: a later step would outlive any on-call shift */
export const MAX_AFTER_MINUTES = 10_080;
export const MAX_REPEAT = 9;

export interface StepInput {
  after_minutes: number;
  channel_ids: string[];
  user_ids: string[];
  schedule_ids?: string[];
}

export interface PolicyInput {
  steps: StepInput[];
  company_id?: string | null;
  repeat?: number;
  notify_team_at_last_step?: boolean;
}

const invalid = (field: string, message: string) => new DomainError('validation', message, { fields: { [field]: message } });

async function present(s: Services, companyId: string, rows: EscalationStepRow[]) {
  // A deleted schedule is no longer named (its steps stop paging through it).
  const schedules = new Set((await schedulesRepo(s.db).list(companyId)).map((r) => r.id));
  const settings = await escalationRepo(s.db).settings(companyId);
  return {
    company_id: companyId,
    people: (await personalContactsRepo(s.db).people(companyId)).map((p) => ({ id: p.id, name: p.full_name })),
    steps: rows.map((r) => {
      const scheduleIds = (JSON.parse(r.schedule_ids) as string[]).filter((id) => schedules.has(id));
      return {
        after_minutes: r.after_minutes,
        channel_ids: JSON.parse(r.channel_ids) as string[],
        user_ids: JSON.parse(r.user_ids) as string[],
        // Only when it names some: a policy without schedules reads as it always did.
        ...(scheduleIds.length ? { schedule_ids: scheduleIds } : {}),
      };
    }),
    repeat: settings.repeat_count,
    notify_team_at_last_step: settings.notify_team_at_last_step,
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

export async function putEscalationPolicy(ctx: Ctx, input: PolicyInput) {
  requirePermission(ctx, 'update', 'settings', 'change the escalation policy');
  const companyId = companyOf(ctx, input.company_id);
  const s = ctx.services;
  if (!(await companiesRepo(s.db).findById(companyId))) throw invalid('company_id', 'Company not found');
  if (input.steps.length > MAX_STEPS) throw invalid('steps', `At most ${MAX_STEPS} steps`);
  const channels = new Set((await alertChannelsRepo(s.db).list(companyId)).map((c) => c.id));
  const users = usersRepo(s.db);
  const schedules = new Set((await schedulesRepo(s.db).list(companyId)).map((r) => r.id));
  // Left out, the switches keep their values: a client that knows only the steps changes only them.
  const stored = await escalationRepo(s.db).settings(companyId);
  const repeat = input.repeat ?? stored.repeat_count;
  if (!Number.isInteger(repeat) || repeat < 0 || repeat > MAX_REPEAT) throw invalid('repeat', `Repeat 0 to ${MAX_REPEAT} times`);
  let previous = 0;
  for (const [i, step] of input.steps.entries()) {
    const at = `steps.${i}`;
    if (step.after_minutes < previous) throw invalid(`${at}.after_minutes`, `Step ${i + 1} must come no sooner than step ${i}`);
    previous = step.after_minutes;
    if (step.channel_ids.length + step.user_ids.length + (step.schedule_ids?.length ?? 0) === 0)
      throw invalid(at, `Step ${i + 1} alerts nobody: choose a channel, a person or a schedule`);
    if ((step.schedule_ids ?? []).some((id) => !schedules.has(id)))
      throw invalid(`${at}.schedule_ids`, `Step ${i + 1}: schedule not found`);
    // Another company's channel or user answers like one that does not exist.
    if (step.channel_ids.some((id) => !channels.has(id))) throw invalid(`${at}.channel_ids`, `Step ${i + 1}: alert channel not found`);
    for (const id of step.user_ids) {
      const u = await users.findById(id);
      if (!u || u.company_id !== companyId) throw invalid(`${at}.user_ids`, `Step ${i + 1}: user not found`);
    }
  }
  const now = s.now();
  await withTransaction(s.db, async (tx) => {
    await escalationRepo(tx).replace(
      companyId,
      input.steps.map((step, position) => ({
        id: newId(),
        company_id: companyId,
        position,
        after_minutes: step.after_minutes,
        channel_ids: JSON.stringify([...new Set(step.channel_ids)]),
        user_ids: JSON.stringify([...new Set(step.user_ids)]),
        schedule_ids: JSON.stringify([...new Set(step.schedule_ids ?? [])]),
        created_at: now,
      })),
    );
    await escalationRepo(tx).putSettings({
      company_id: companyId,
      repeat_count: repeat,
      notify_team_at_last_step: input.notify_team_at_last_step ?? stored.notify_team_at_last_step,
      updated_at: now,
    });
  });
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
  const policies = new Map<string, Awaited<ReturnType<typeof policyOf>>>();
  let sent = 0;
  for (const incident of await repo.pendingIncidents(BATCH)) {
    let policy = policies.get(incident.company_id);
    if (!policy) policies.set(incident.company_id, (policy = await policyOf(services, incident.company_id)));
    const due = dueEscalationSteps(incident.started_at, incident.escalated_steps, policy.rounds, now);
    if (due.length === 0) continue;
    await withTransaction(services.db, async (tx) => {
      if (!(await escalationRepo(tx).advance(incident.id, incident.escalated_steps, incident.escalated_steps + due.length))) return;
      for (const d of due) {
        const dueAt = incident.started_at + d.afterMinutes * 60_000;
        const people = await peopleOf(tx, incident.company_id, d.step, d.isLast && policy.notifyTeam, dueAt);
        await enqueueEscalationStep(
          tx,
          incident,
          { step: d.step, round: d.round, index: d.index, position: d.position, afterMinutes: d.afterMinutes, people },
          now,
        );
      }
      sent += due.length;
    });
  }
  return sent;
}

async function policyOf(services: Services, companyId: string) {
  const repo = escalationRepo(services.db);
  const steps = (await repo.steps(companyId)).map((s) => ({ ...s, afterMinutes: s.after_minutes }));
  const settings = await repo.settings(companyId);
  return { rounds: escalationRounds(steps, settings.repeat_count), notifyTeam: settings.notify_team_at_last_step };
}

/** Whom a step alerts personally, each once: named users, then whoever is on call at `dueAt` in its schedules, then the team. */
async function peopleOf(db: DbScope, companyId: string, step: EscalationStepRow, team: boolean, dueAt: number): Promise<PagedPerson[]> {
  const out = new Map<string, PagedPerson>();
  const add = (p: PagedPerson) => {
    if (!out.has(p.userId)) out.set(p.userId, p);
  };
  for (const userId of JSON.parse(step.user_ids) as string[]) add({ userId, reason: 'user', scheduleId: null, scheduleName: null });
  for (const o of await onCallIn(db, companyId, JSON.parse(step.schedule_ids) as string[], dueAt))
    add({ userId: o.userId, reason: 'schedule', scheduleId: o.scheduleId, scheduleName: o.scheduleName });
  if (team)
    for (const p of await personalContactsRepo(db).people(companyId))
      add({ userId: p.id, reason: 'team', scheduleId: null, scheduleName: null });
  return [...out.values()];
}
