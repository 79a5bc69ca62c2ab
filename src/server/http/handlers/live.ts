// GET /api/v1/events: the console's server-sent-events stream (one per tab). Errors before the
// stream starts (no session, the cap) are problem answers like any call's; once started, the
// response stays open with typed events and a heartbeat comment every 15 s (so proxies and the
// server's idle time-out keep it), at which the session is checked again. It ends when the
// session was signed out or revoked, when the access token expires (the browser renews its
// session and reconnects) and when the server shuts down.
import type { HandlerMap } from '../handler-types.ts';
import { openLiveStream } from '../../domain/live/service.ts';
import type { LiveEvent } from '../../domain/live/hub.ts';
import { securityHeaders } from '../security-headers.ts';
import { resolveActor } from '../auth/resolve-actor.ts';

export const HEARTBEAT_MS = 15_000;
/** How long the browser waits before reconnecting after a drop (the stream's `retry:`). */
export const RETRY_MS = 2_000;
/** A client that reads nothing while this much is buffered is cut off, not buffered for. */
const MAX_BUFFERED_BYTES = 64 * 1024;

const frame = (e: LiveEvent) => `event: ${e.type}\ndata: ${JSON.stringify(e.data)}\n\n`;

export const liveHandlers = {
  streamEvents: async ({ ctx, query, req, reply }) => {
    const res = reply.raw;
    let ended = false;
    let heartbeat: NodeJS.Timeout | undefined;
    let expiry: NodeJS.Timeout | undefined;
    let unsubscribe = () => {};
    const end = () => {
      if (ended) return;
      ended = true;
      clearInterval(heartbeat);
      clearTimeout(expiry);
      unsubscribe();
      res.end();
    };
    const write = (text: string) => {
      if (ended) return;
      if (res.writableLength > MAX_BUFFERED_BYTES) return void res.destroy();
      res.write(text);
    };
    // a session signed out or revoked elsewhere stops its streams within a heartbeat
    const stillSignedIn = async () => {
      try {
        return (await resolveActor(req, ctx.services, ctx.host))?.sessionId === ctx.actor?.sessionId;
      } catch {
        return true; // the database did not answer: keep the stream, ask again next time
      }
    };
    unsubscribe = openLiveStream(ctx, (query as { tenant?: string }).tenant, { send: (e) => write(frame(e)), close: end });
    reply.hijack();
    res.writeHead(200, {
      ...securityHeaders({ https: ctx.services.config.publicScheme === 'https', html: false }),
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store',
      // reverse proxies (nginx) would otherwise hold events back in their buffer
      'x-accel-buffering': 'no',
    });
    write(`retry: ${RETRY_MS}\n: connected\n\n`);
    heartbeat = setInterval(() => {
      write(': heartbeat\n\n');
      void stillSignedIn().then((yes) => yes || end());
    }, HEARTBEAT_MS);
    const expiresIn = (ctx.actor?.exp ?? 0) * 1000 - Date.now();
    expiry = setTimeout(end, Math.max(0, Math.min(expiresIn, 2 ** 31 - 1)));
    req.raw.on('close', end);
    res.on('error', end);
    return reply;
  },
} satisfies HandlerMap;
