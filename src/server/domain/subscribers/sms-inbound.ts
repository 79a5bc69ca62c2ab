// Twilio's inbound message webhook (POST /api/v1/public/sms/inbound): what SMS subscribers text
// back to the operator's number. Every request must carry Twilio's X-Twilio-Signature, the
// HMAC-SHA1 (key: the auth token) of the URL Twilio called followed by each POST parameter's
// name and value, sorted by name, in Base64
// (https://www.twilio.com/docs/usage/webhooks/webhooks-security); a request without a valid one
// is refused (403) and changes nothing. Keywords, as carriers and Twilio's Advanced Opt-Out know
// them: STOP, STOPALL, UNSUBSCRIBE, CANCEL, END, QUIT end the number's subscriptions with every
// company and put it on the opt-out list; START, UNSTOP take it off (subscribing again is
// still the visitor's choice); HELP answers with a short text. Twilio itself confirms STOP and
// START to the sender, so those answers are empty.
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Services } from '../context.ts';
import { DomainError } from '../errors.ts';
import { withTransaction } from '../../db/scope.ts';
import { smsOptOutsRepo } from '../../db/repositories/sms-opt-outs-repo.ts';
import { subscribersRepo } from '../../db/repositories/subscribers-repo.ts';
import { smsHelp } from '../../notify/outbox/subscriber-sms.ts';
import { escapeText } from '../../../lib/html-escape.ts';
import { SMS_NOT_OFFERED } from './sms.ts';

export const STOP_WORDS = ['STOP', 'STOPALL', 'UNSUBSCRIBE', 'CANCEL', 'END', 'QUIT'];
export const START_WORDS = ['START', 'UNSTOP'];
export const HELP_WORDS = ['HELP'];

/** Twilio's signature of a POST: Base64 HMAC-SHA1 of the URL and the sorted name-value pairs. */
export function twilioSignature(authToken: string, url: string, params: URLSearchParams): string {
  const names = [...new Set(params.keys())].sort();
  let data = url;
  for (const name of names) for (const value of params.getAll(name)) data += name + value;
  return createHmac('sha1', authToken).update(data, 'utf8').digest('base64');
}

const twiml = (message?: string) =>
  `<?xml version="1.0" encoding="UTF-8"?><Response>${message ? `<Message>${escapeText(message)}</Message>` : ''}</Response>`;

/**
 * Handles one inbound message; answers the TwiML to send back. `url` is the URL Twilio was
 * given (the public main origin and the path and query it called).
 */
export async function receiveSms(services: Services, input: { url: string; signature: string | undefined; body: string }): Promise<string> {
  const account = services.config.personalSms;
  if (!account) throw new DomainError('not_found', SMS_NOT_OFFERED);
  const params = new URLSearchParams(input.body);
  const expected = Buffer.from(twilioSignature(account.auth_token, input.url, params));
  const given = Buffer.from(input.signature ?? '');
  if (given.length !== expected.length || !timingSafeEqual(given, expected) || params.get('AccountSid') !== account.account_sid)
    throw new DomainError('forbidden', 'The request does not carry a valid X-Twilio-Signature.');
  const from = params.get('From') ?? '';
  const word = (params.get('Body') ?? '').trim().split(/\s+/)[0]?.toUpperCase() ?? '';
  if (!/^\+[1-9]\d{1,14}$/.test(from)) return twiml();
  const now = services.now();
  if (STOP_WORDS.includes(word)) {
    await withTransaction(services.db, async (tx) => {
      await smsOptOutsRepo(tx).optOut(from, now);
      await subscribersRepo(tx).unsubscribePhone(from, now);
    });
    return twiml();
  }
  if (START_WORDS.includes(word)) {
    await smsOptOutsRepo(services.db).optIn(from);
    return twiml();
  }
  if (HELP_WORDS.includes(word)) return twiml(smsHelp(services.config.productName, 'en'));
  return twiml();
}
