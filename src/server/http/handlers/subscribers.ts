// Status-page subscribers: one handler per operationId of openapi/paths/subscribers.yaml and
// openapi/paths/subscribers-chat-sms.yaml.
import type { Readable } from 'node:stream';
import type { HandlerMap } from '../handler-types.ts';
import * as subscribers from '../../domain/subscribers/service.ts';
import { receiveSms } from '../../domain/subscribers/sms-inbound.ts';
import { publicMainOrigin } from '../../domain/status-page/public-links.ts';
import { problem, sendProblem } from '../problem.ts';

/** Twilio's inbound posts are a few hundred bytes; a bigger body is not Twilio's. */
const INBOUND_SMS_LIMIT = 16 * 1024;

async function readForm(body: Readable): Promise<string | null> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    size += (chunk as Buffer).length;
    if (size > INBOUND_SMS_LIMIT) return null;
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

export const subscribersHandlers = {
  subscribeToStatusPage: async ({ ctx, params, body, reply, req }) => {
    const r = await subscribers.subscribe(ctx, params.subdomain, body, req.headers['accept-language']);
    reply.code(202).header('cache-control', 'no-store');
    if (r.kind !== 'webhook') return { status: r.status };
    return { status: r.status, id: r.id, secret: r.secret, unsubscribe_url: r.unsubscribe_url };
  },
  confirmSmsSubscription: async ({ ctx, params, body, reply }) => {
    reply.header('cache-control', 'no-store');
    return subscribers.confirmSmsSubscription(ctx, params.subdomain, body);
  },
  receiveInboundSms: async ({ ctx, req, reply }) => {
    if (!String(req.headers['content-type'] ?? '').startsWith('application/x-www-form-urlencoded'))
      return sendProblem(reply, problem(415, 'unsupported_media_type', 'Twilio posts application/x-www-form-urlencoded.'));
    const form = await readForm(req.body as Readable);
    if (form === null) return sendProblem(reply, problem(413, 'payload_too_large', 'The body is larger than 16 KiB.'));
    // Twilio signs the URL it was given: the public main origin (configuration, never the Host
    // header) with the path and query it called.
    const twiml = await receiveSms(ctx.services, {
      url: `${publicMainOrigin(ctx.services.config)}${req.url}`,
      signature: req.headers['x-twilio-signature'] as string | undefined,
      body: form,
    });
    return reply.code(200).type('text/xml; charset=utf-8').header('cache-control', 'no-store').send(twiml);
  },
  listSubscribers: async ({ ctx, query }) => subscribers.listSubscribers(ctx, query),
  deleteSubscriber: async ({ ctx, params, reply }) => {
    await subscribers.deleteSubscriber(ctx, params.id);
    return reply.code(204).send();
  },
} satisfies HandlerMap;
