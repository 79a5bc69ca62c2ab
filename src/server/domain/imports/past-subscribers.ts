// Status page subscribers brought over from another tool, ONLY those who confirmed their
// subscription there (the importer leaves out the unconfirmed and the quarantined): they are
// stored as confirmed, with the time they subscribed, and get no confirmation mail (they
// consented already; asking again would read as spam). An address the page already knows is
// left as it is, whatever its state: someone who unsubscribed here stays unsubscribed. One call
// is one transaction.
import { subscribersRepo } from '../../db/repositories/subscribers-repo.ts';
import { withTransaction } from '../../db/scope.ts';
import { auditFromCtx } from '../audit/record.ts';
import type { Ctx } from '../context.ts';
import { DomainError } from '../errors.ts';
import { MAX_SUBSCRIBERS_PER_COMPANY, full, newRow } from '../subscribers/subscribe-common.ts';
import { authorizeImport } from './service.ts';

export interface PastSubscribersAnswer {
  dry_run: boolean;
  subscribers: { email: string; action: 'create' | 'unchanged' }[];
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export async function importConfirmedSubscribers(
  ctx: Ctx,
  input: { dry_run?: boolean; subscribers: { email: string; subscribed_at: string }[] },
): Promise<PastSubscribersAnswer> {
  const actor = authorizeImport(ctx);
  if (!input.dry_run && actor.apiToken?.scope === 'read')
    throw new DomainError('forbidden', 'This API token is read-only: it may run a dry run; importing needs write scope.');
  const companyId = actor.companyId as string;
  const now = ctx.services.now();
  const rows = input.subscribers.map((s, n) => {
    const email = s.email.trim().toLowerCase();
    const at = Date.parse(s.subscribed_at);
    if (!EMAIL.test(email) || email.length > 254)
      throw new DomainError('validation', `subscribers[${n}]: not an e-mail address.`, {
        fields: { [`subscribers[${n}]`]: 'Not an e-mail address.' },
      });
    if (!Number.isFinite(at) || at > now)
      throw new DomainError('validation', `subscribers[${n}]: subscribed_at is not a past date and time.`, {
        fields: { [`subscribers[${n}]`]: 'Not a past date and time.' },
      });
    return { email, at };
  });
  const answer: PastSubscribersAnswer = { dry_run: input.dry_run === true, subscribers: [] };
  await withTransaction(ctx.services.db, async (tx) => {
    const repo = subscribersRepo(tx);
    const seen = new Set<string>();
    const fresh: typeof rows = [];
    for (const r of rows) {
      const there = seen.has(r.email) || (await repo.byEmail(companyId, r.email)) !== undefined;
      answer.subscribers.push({ email: r.email, action: there ? 'unchanged' : 'create' });
      seen.add(r.email);
      if (!there) fresh.push(r);
    }
    if (input.dry_run || fresh.length === 0) return;
    if ((await repo.liveCount(companyId)) + fresh.length > MAX_SUBSCRIBERS_PER_COMPANY) throw full();
    for (const r of fresh)
      await repo.insert(newRow(companyId, 'email', r.at, { email: r.email, state: 'confirmed', confirmed_at: r.at, updated_at: now }));
    await auditFromCtx(tx, ctx, 'data_import', { what: 'confirmed subscribers', created: fresh.length });
  });
  return answer;
}
