// Opening a live stream: the session and tenant rules of every other call (a company user gets
// their company; a super admin the tenant chosen in the selector, or all of them), and a cap on
// the streams one account may hold open, so opening tabs in a loop cannot exhaust the server.
import type { Ctx, Services } from '../context.ts';
import { companyScope, requireActor } from '../authz.ts';
import { DomainError } from '../errors.ts';
import { LiveHub, type LiveSink } from './hub.ts';

export const MAX_STREAMS_PER_USER = 10;

function hubOf(services: Services): LiveHub {
  // a failed poll (database outage) is reported and retried on the next tick; streams stay open
  services.live ??= new LiveHub(services.db, services.now, (m) => {
    if (services.config.logLevel !== 'silent') process.stderr.write(`${m}\n`);
  });
  return services.live;
}

/** Subscribes the sink to the actor's scope; the returned function unsubscribes. */
export function openLiveStream(ctx: Ctx, tenant: string | undefined, sink: LiveSink): () => void {
  const actor = requireActor(ctx);
  const companyId = companyScope(ctx, tenant);
  const hub = hubOf(ctx.services);
  if (hub.streamsOf(actor.userId) >= MAX_STREAMS_PER_USER) {
    throw new DomainError(
      'rate_limited',
      `At most ${MAX_STREAMS_PER_USER} live connections per account are allowed; close some console tabs.`,
      { retryAfter: 30 },
    );
  }
  return hub.subscribe({ userId: actor.userId, companyId }, sink);
}

/** Ends every open stream (server shutdown), so closing the server does not wait for them. */
export async function closeLiveStreams(services: Services): Promise<void> {
  await services.live?.close();
}
