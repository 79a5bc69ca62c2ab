// SMS subscribers, texted through the operator's Twilio account (TWILIO_ACCOUNT_SID,
// TWILIO_AUTH_TOKEN, TWILIO_FROM; the API host TWILIO_API_URL). Offered only when that account
// is set up and the company's plan has the `sms_subscribers` feature. Opt-in by code: we text a
// 6-digit code (valid 10 minutes, 5 guesses), the visitor types it on the page. Only its hash is
// stored (with the subscriber's id, so equal codes of two numbers never share a hash). Texting
// is throttled per number (whoever asks, from any company's page), per client IP and per
// company; a number that texted STOP is refused until it texts START (sms-inbound.ts).
import { createHash, randomInt, timingSafeEqual } from 'node:crypto';
import { parsePhoneNumberFromString } from 'libphonenumber-js/max';
import type { Ctx, Services } from '../context.ts';
import { DomainError } from '../errors.ts';
import { companiesRepo } from '../../db/repositories/companies-repo.ts';
import { smsOptOutsRepo } from '../../db/repositories/sms-opt-outs-repo.ts';
import { subscribersRepo, type SubscriberRow } from '../../db/repositories/subscribers-repo.ts';
import { isUniqueViolation } from '../../db/unique-violation.ts';
import { textTo } from '../../notify/outbox/subscriber-chat-send.ts';
import { smsCode, smsWelcome } from '../../notify/outbox/subscriber-sms.ts';
import { planHasFeature } from '../../../lib/plans.ts';
import { full, invalid, limited, MAX_SUBSCRIBERS_PER_COMPANY, newRow, refuse } from './subscribe-common.ts';
import { newNonce } from './tokens.ts';

export const SMS_CODE_TTL_MS = 10 * 60_000;
/** Wrong guesses before a code stops working (a new one must be asked for) */
export const SMS_CODE_GUESSES = 5;
export const SMS_NOT_OFFERED = 'SMS subscriptions are not offered on this status page.';

/** Whether this installation and the company's plan offer SMS subscribing. */
export async function smsOffered(services: Services, companyId: string): Promise<boolean> {
  if (!services.config.personalSms) return false;
  const company = await companiesRepo(services.db).findById(companyId);
  return planHasFeature(services.config.planFeatures, company?.plan, 'sms_subscribers');
}

/** A mobile number in E.164 (+447700900123), or a refusal naming `phone`. */
export function e164(raw: unknown): string {
  const wrong = () => invalid('phone', 'Enter a mobile number with its country code, such as +44 7700 900123');
  if (typeof raw !== 'string' || raw.length > 40) throw wrong();
  // The full metadata ("max") tells mobiles from landlines. No default country: a number without its country code is ambiguous on a page read worldwide.
  const p = parsePhoneNumberFromString(raw.trim().replace(/^00/, '+'));
  if (!p?.isValid()) throw wrong();
  const type = p.getType();
  if (type === 'FIXED_LINE' || type === 'PREMIUM_RATE' || type === 'TOLL_FREE' || type === 'SHARED_COST')
    throw invalid('phone', 'Enter a mobile number: this one cannot receive text messages');
  return p.number;
}

const codeHash = (subscriberId: string, code: string) => createHash('sha256').update(`sms-code.${subscriberId}.${code}`).digest('hex');

type Company = { id: string; name: string; subdomain: string };

export async function subscribeSms(
  ctx: Ctx,
  company: Company,
  rawPhone: unknown,
  componentChoice: string | null,
  /** the subscriber's language (service.ts subscriberLocale) */
  locale: string,
): Promise<{ kind: 'sms'; status: 'pending' }> {
  const s = ctx.services;
  if (!(await smsOffered(s, company.id))) throw new DomainError('not_found', SMS_NOT_OFFERED);
  const phone = e164(rawPhone);
  const now = s.now();
  const t = s.state.subscribeThrottles;
  limited(t.ip, ctx.ip, now, 'from your network');
  limited(t.company, company.id, now, 'for this status page');
  if (await smsOptOutsRepo(s.db).optedOut(phone))
    throw invalid('phone', `This number replied STOP. Text START to ${s.config.personalSms!.from} first, then subscribe again.`);
  refuse(await t.phone.take(phone, now), 'for this number');
  t.ip.hit(ctx.ip, now);
  const repo = subscribersRepo(s.db);
  const existing = await repo.byPhone(company.id, phone);
  // Already subscribed: nothing is texted, and the answer is the same as for a new number.
  if (existing?.state === 'confirmed') return { kind: 'sms', status: 'pending' };
  if (!existing && (await repo.liveCount(company.id)) >= MAX_SUBSCRIBERS_PER_COMPANY) throw full();
  const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
  let row: SubscriberRow;
  if (existing) {
    const patch = {
      state: 'pending' as const,
      component_ids: componentChoice,
      locale,
      confirm_token_hash: codeHash(existing.id, code),
      confirm_expires_at: now + SMS_CODE_TTL_MS,
      confirm_attempts: 0,
      unsubscribe_nonce: existing.state === 'unsubscribed' ? newNonce() : existing.unsubscribe_nonce,
      updated_at: now,
    };
    await repo.update(existing.id, patch);
    row = { ...existing, ...patch };
  } else {
    t.company.hit(company.id, now);
    row = newRow(company.id, 'sms', now, { phone, component_ids: componentChoice, locale, confirm_expires_at: now + SMS_CODE_TTL_MS });
    row.confirm_token_hash = codeHash(row.id, code);
    try {
      await repo.insert(row);
    } catch (e) {
      if (isUniqueViolation(e)) return { kind: 'sms', status: 'pending' };
      throw e;
    }
  }
  const sent = await textTo(s, phone, smsCode(code, company, SMS_CODE_TTL_MS / 60_000, locale));
  if (sent.error !== null) {
    if (!existing) await repo.delete(row.id);
    throw new DomainError('unavailable', 'The code could not be texted just now. Try again in a few minutes.');
  }
  return { kind: 'sms', status: 'pending' };
}

/** The visitor types the texted code: the subscription is confirmed, or the refusal says why. */
export async function confirmSmsCode(ctx: Ctx, company: Company, input: { phone: string; code: string }): Promise<{ status: 'confirmed' }> {
  const s = ctx.services;
  if (!(await smsOffered(s, company.id))) throw new DomainError('not_found', SMS_NOT_OFFERED);
  const phone = e164(input.phone);
  const now = s.now();
  const t = s.state.subscribeThrottles;
  limited(t.codeIp, ctx.ip, now, 'from your network');
  t.codeIp.hit(ctx.ip, now);
  const repo = subscribersRepo(s.db);
  const row = await repo.byPhone(company.id, phone);
  const again = 'Ask for a new code.';
  if (row?.state !== 'pending' || !row.confirm_token_hash || row.confirm_expires_at === null)
    throw invalid('code', `This code is not valid. ${again}`);
  if (Number(row.confirm_expires_at) <= now) throw invalid('code', `This code expired. ${again}`);
  if (Number(row.confirm_attempts) >= SMS_CODE_GUESSES) throw invalid('code', `Too many wrong codes. ${again}`);
  const given = Buffer.from(codeHash(row.id, String(input.code).trim()));
  const expected = Buffer.from(row.confirm_token_hash);
  if (!/^\d{6}$/.test(String(input.code).trim()) || !timingSafeEqual(given, expected)) {
    const guesses = await repo.wrongGuess(row.id, now);
    throw invalid('code', guesses >= SMS_CODE_GUESSES ? `Too many wrong codes. ${again}` : 'This code is not right.');
  }
  const done = await repo.transition(row.id, 'pending', {
    state: 'confirmed',
    confirm_token_hash: null,
    confirm_expires_at: null,
    confirmed_at: now,
    updated_at: now,
  });
  if (!done) throw invalid('code', `This code is not valid. ${again}`);
  // The first text says how to stop; it does not hold up the answer.
  void textTo(s, phone, smsWelcome(company, row.locale ?? 'en')).catch(() => undefined);
  return { status: 'confirmed' };
}
