// Past incidents brought over from another tool (Statuspage's incident history), written with
// their own times: the incident resolved, its updates in order, on the monitors it was about.
// Nothing is sent: no subscriber notice, no alert, no escalation (it is history, and the
// people were told at the time). Idempotent: an incident of the same title that started at the
// same instant is already there and is left as it is. All of a call is written in one
// transaction, so a refusal leaves none of it.
import { incidentsRepo } from '../../db/repositories/incidents-repo.ts';
import type { IncidentStatus } from '../../db/schema/monitoring.ts';
import { withTransaction } from '../../db/scope.ts';
import { plainTextProblem } from '../../../lib/plain-text.ts';
import { severityOfImpact, type Impact } from '../../../lib/status.ts';
import { auditFromCtx } from '../audit/record.ts';
import type { Ctx } from '../context.ts';
import { DomainError } from '../errors.ts';
import { newId } from '../ids.ts';
import { affectedMonitors } from '../monitors/affected-monitors.ts';
import { authorizeImport } from './service.ts';

export interface PastIncidentInput {
  title: string;
  impact: Impact;
  started_at: string;
  resolved_at: string;
  is_public?: boolean;
  monitor_ids?: string[];
  updates: { status: Exclude<IncidentStatus, 'open'>; message: string; at: string }[];
}

export interface PastIncidentsAnswer {
  dry_run: boolean;
  incidents: { title: string; started_at: string; action: 'create' | 'unchanged' }[];
}

const ms = (iso: string, field: string) => {
  const t = Date.parse(iso);
  if (!Number.isFinite(t))
    throw new DomainError('validation', `${field} is not a date and time.`, { fields: { [field]: 'Not a date and time.' } });
  return t;
};

export async function importPastIncidents(
  ctx: Ctx,
  input: { dry_run?: boolean; incidents: PastIncidentInput[] },
): Promise<PastIncidentsAnswer> {
  const actor = authorizeImport(ctx);
  if (!input.dry_run && actor.apiToken?.scope === 'read')
    throw new DomainError('forbidden', 'This API token is read-only: it may run a dry run; importing needs write scope.');
  const companyId = actor.companyId as string;
  const now = ctx.services.now();
  const checked: { i: PastIncidentInput; title: string; startedAt: number; resolvedAt: number; times: number[]; monitorIds: string[] }[] =
    [];
  for (const [n, i] of input.incidents.entries()) {
    const where = `incidents[${n}]`;
    const title = i.title.trim();
    const problem =
      plainTextProblem('Title', title) ?? i.updates.map((u) => plainTextProblem('Message', u.message)).find((p) => p !== null) ?? null;
    if (!title || problem)
      throw new DomainError('validation', `${where}: ${problem ?? 'Title is required'}`, {
        fields: { [where]: problem ?? 'Title is required' },
      });
    const startedAt = ms(i.started_at, `${where}.started_at`);
    const resolvedAt = ms(i.resolved_at, `${where}.resolved_at`);
    const times = i.updates.map((u, k) => ms(u.at, `${where}.updates[${k}].at`));
    // History only: an incident still running belongs in the console, where it notifies people.
    if (resolvedAt < startedAt || resolvedAt > now || times.some((t) => t > now))
      throw new DomainError('validation', `${where}: a past incident starts before it is resolved, and both are in the past.`, {
        fields: { [where]: 'Not a past incident.' },
      });
    checked.push({
      i,
      title,
      startedAt,
      resolvedAt,
      times,
      monitorIds: await affectedMonitors(ctx, companyId, { monitor_ids: i.monitor_ids ?? [] }),
    });
  }
  const answer: PastIncidentsAnswer = { dry_run: input.dry_run === true, incidents: [] };
  await withTransaction(ctx.services.db, async (tx) => {
    const repo = incidentsRepo(tx);
    let created = 0;
    for (const c of checked) {
      const there = await repo.findByTitleAndStart(companyId, c.title, c.startedAt);
      answer.incidents.push({ title: c.title, started_at: new Date(c.startedAt).toISOString(), action: there ? 'unchanged' : 'create' });
      if (there || input.dry_run) continue;
      const id = newId();
      await repo.insert({
        id,
        company_id: companyId,
        monitor_id: c.monitorIds[0] ?? null,
        title: c.title,
        severity: severityOfImpact(c.i.impact),
        status: 'resolved',
        is_public: c.i.is_public !== false,
        started_at: c.startedAt,
        resolved_at: c.resolvedAt,
        created_by: actor.userId,
        created_at: c.startedAt,
        updated_at: c.resolvedAt,
      });
      for (const [k, u] of c.i.updates.entries())
        await repo.addUpdate({
          id: newId(),
          incident_id: id,
          company_id: companyId,
          status: u.status,
          message: u.message.trim(),
          created_by: actor.userId,
          created_at: c.times[k],
        });
      await repo.setMonitors(id, companyId, c.monitorIds);
      created++;
    }
    if (created > 0) await auditFromCtx(tx, ctx, 'data_import', { what: 'past incidents', created });
  });
  return answer;
}
