// The receive routes (POST /api/v1/incoming/{kind}): a tool's notification, judged by the
// source's token alone (no session, no same-origin check: Alertmanager and Grafana are servers).
// An unknown, rotated or deleted token, or one of an inactive company, is 401; a token of
// another kind of source is 403 naming its route. Each source is throttled in this process (a
// flood guard: a misconfigured tool re-sending in a loop), then its batch is applied in one
// transaction (incidents.ts) and the source's last-received time is set.
import { incomingSourcesRepo, type IncomingSourceAuthRow } from '../../db/repositories/incoming-sources-repo.ts';
import { monitorsRepo } from '../../db/repositories/monitors-repo.ts';
import type { IncomingKind } from '../../db/schema/incoming.ts';
import { withTransaction } from '../../db/scope.ts';
import { notifyIn } from '../../notify/notify.ts';
import { plainTextProblem } from '../../../lib/plain-text.ts';
import { hashSecret } from '../auth/tokens.ts';
import { SlidingWindow } from '../auth/throttle.ts';
import type { Services } from '../context.ts';
import { DomainError } from '../errors.ts';
import { batchOf, type GenericBody } from './bodies.ts';
import { applyBatch, type Outcome } from './incidents.ts';
import type { AlertLevel } from './severity.ts';
import { INCOMING_TOKEN_PREFIX, receivePath } from './sources.ts';

const INVALID = 'This incoming alert token is invalid, rotated or its source was deleted.';
/**
 * Notifications per source a minute. Alertmanager sends one per group per group_interval (5 min
 * by default) and Grafana likewise, so even hundreds of groups stay far below; more is a loop.
 */
const PER_MINUTE = 600;

declare module '../context.ts' {
  interface ProcessState {
    /** Recent notifications per incoming source, this process (receive.ts): a flood guard */
    incomingCalls?: SlidingWindow;
  }
}

async function verifyToken(services: Services, presented: string | null): Promise<IncomingSourceAuthRow> {
  if (presented === null)
    throw new DomainError(
      'unauthorized',
      'An incoming alert token is required: Authorization: Bearer swi_…, or the token at the end of the URL.',
    );
  if (!presented.startsWith(INCOMING_TOKEN_PREFIX) || presented.length > 200) throw new DomainError('unauthorized', INVALID);
  const row = await incomingSourcesRepo(services.db).findByTokenHash(hashSecret(presented));
  if (!row) throw new DomainError('unauthorized', INVALID);
  if (!row.company_active) throw new DomainError('unauthorized', 'The company of this incoming alert source is inactive.');
  return row;
}

export interface ReceiveAnswer {
  outcome: Outcome;
  incident_id: string | null;
}

export async function receiveIncoming(
  services: Services,
  kind: IncomingKind,
  presented: string | null,
  body: unknown,
): Promise<ReceiveAnswer> {
  const source = await verifyToken(services, presented);
  if (source.kind !== kind)
    throw new DomainError(
      'forbidden',
      `This token belongs to a ${source.kind} source: send its notifications to ${receivePath(source.kind)}.`,
    );
  const now = services.now();
  services.state.incomingCalls ??= new SlidingWindow(PER_MINUTE, 60_000);
  const calls = services.state.incomingCalls;
  const retryAfter = calls.retryAfter(source.id, now);
  if (retryAfter > 0)
    throw new DomainError('rate_limited', `Too many notifications from this source. Try again in ${retryAfter} s.`, { retryAfter });
  calls.hit(source.id, now);
  const batch = batchOf(kind, body, {
    label: source.severity_label,
    map: JSON.parse(source.severity_map) as Record<string, AlertLevel>,
    fallback: source.default_severity as AlertLevel,
  });
  let components = JSON.parse(source.component_ids) as string[];
  if (kind === 'generic') {
    const g = body as GenericBody & { component_ids?: string[] };
    // A script is told what is wrong with its words; a tool's labels are cleaned instead (bodies.ts).
    for (const [field, label] of [
      ['key', 'Key'],
      ['title', 'Title'],
      ['message', 'Message'],
    ] as const) {
      const problem = plainTextProblem(label, g[field]);
      if (problem) throw new DomainError('validation', problem, { fields: { [field]: problem } });
    }
    if (!batch.key)
      throw new DomainError('validation', 'key is required', { fields: { key: 'A key is required (the same key for the same problem)' } });
    if (!batch.title) throw new DomainError('validation', 'title is required', { fields: { title: 'A title is required' } });
    if (g.component_ids !== undefined) components = await ownComponents(services, source.company_id, g.component_ids);
  }
  const done = await withTransaction(services.db, async (tx) => {
    const answer = await applyBatch(tx, notifyIn(tx, now), source, batch, now, components);
    await incomingSourcesRepo(tx).touch(source.id, now);
    return answer;
  });
  return { outcome: done.outcome, incident_id: done.incidentId };
}

/** The generic body may name its own components: each must be one of the source's company's monitors. */
async function ownComponents(services: Services, companyId: string, ids: string[]): Promise<string[]> {
  const unique = [...new Set(ids)];
  const monitors = monitorsRepo(services.db);
  for (const id of unique)
    if (!(await monitors.findById(id, companyId)))
      throw new DomainError('validation', `Component not found: ${id}`, { fields: { component_ids: `Component not found: ${id}` } });
  return unique;
}
