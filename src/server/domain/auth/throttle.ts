// Sliding-window counters in memory: sign-in failures (per account and address, per address,
// per account), and other per-key rate limits (signup, forgot-password, client audit events). One process keeps its own counters; with
// several processes each enforces its own limits (an attacker gains at most a factor of the
// process count), which is acceptable for these ceilings.
import type { Services } from '../context.ts';
import { DomainError } from '../errors.ts';

const HOUR = 3_600_000;
const MAX_KEYS = 100_000;

export class SlidingWindow {
  private readonly hits = new Map<string, number[]>();
  readonly limit: number;
  readonly windowMs: number;
  constructor(limit: number, windowMs: number) {
    this.limit = limit;
    this.windowMs = windowMs;
  }
  private live(key: string, now: number): number[] {
    const list = this.hits.get(key);
    if (!list) return [];
    const from = now - this.windowMs;
    let i = 0;
    while (i < list.length && list[i] <= from) i++;
    if (i > 0) list.splice(0, i);
    if (list.length === 0) this.hits.delete(key);
    return list;
  }
  /** Seconds until another hit is allowed, or 0 when the key is under its limit. */
  retryAfter(key: string, now: number): number {
    const list = this.live(key, now);
    if (list.length < this.limit) return 0;
    return Math.max(1, Math.ceil((list[list.length - this.limit] + this.windowMs - now) / 1000));
  }
  /** Hits of the key inside the window (at most `limit` are kept). */
  count(key: string, now: number): number {
    return this.live(key, now).length;
  }
  /** Time of the key's latest hit inside the window, or undefined. */
  latest(key: string, now: number): number | undefined {
    return this.live(key, now).at(-1);
  }
  hit(key: string, now: number): void {
    const list = this.live(key, now);
    if (list.length === 0) {
      if (this.hits.size >= MAX_KEYS) this.hits.delete(this.hits.keys().next().value as string);
      this.hits.set(key, list);
    }
    list.push(now);
    // Only the latest `limit` hits decide; older ones would only grow memory under a flood.
    if (list.length > this.limit) list.shift();
  }
  clear(key: string): void {
    this.hits.delete(key);
  }
}

/**
 * Sign-in throttling that an attacker cannot turn into a lock-out of the owner (ASVS 2.2.1):
 * - failures count per (account, address): after the 3rd that address waits 1 s, 2 s, 4 s, …
 *   before its next attempt on that account, and after 10 in an hour it is refused for the
 *   rest of the hour;
 * - an address with 300 failures an hour, on any accounts, is refused;
 * - an account never locks for everyone: past 100 failures an hour from all addresses together
 *   (an attack spread over many addresses), only addresses its owner is known to use still get
 *   through: one that signed in to it in the last 30 days, or one that opened the unlock link
 *   the owner is then mailed.
 */
export const PAIR_FAILURES_PER_HOUR = 10;
export const IP_FAILURES_PER_HOUR = 300;
export const ACCOUNT_FAILURES_PER_HOUR = 100;
const BACKOFF_FROM = 3;
const MAX_BACKOFF_SECONDS = 15 * 60;
const TRUST_MS = 30 * 24 * HOUR;
const TRUSTED_PER_ACCOUNT = 20;

/** Seconds an address waits before its next attempt on an account it has failed `failures` times. */
export function backoffSeconds(failures: number): number {
  return failures < BACKOFF_FROM ? 0 : Math.min(MAX_BACKOFF_SECONDS, 2 ** (failures - BACKOFF_FROM));
}

export type LoginCheck = { allowed: true } | { allowed: false; reason: 'address' | 'pair' | 'account'; retryAfter: number };

export class LoginGuard {
  private readonly pair = new SlidingWindow(PAIR_FAILURES_PER_HOUR, HOUR);
  private readonly ip = new SlidingWindow(IP_FAILURES_PER_HOUR, HOUR);
  private readonly account = new SlidingWindow(ACCOUNT_FAILURES_PER_HOUR, HOUR);
  private readonly unlockMailed = new SlidingWindow(1, HOUR);
  /** account → address → trusted until */
  private readonly trusted = new Map<string, Map<string, number>>();

  check(email: string, ip: string, now: number): LoginCheck {
    const byIp = this.ip.retryAfter(ip, now);
    if (byIp > 0) return { allowed: false, reason: 'address', retryAfter: byIp };
    const key = `${email}\n${ip}`;
    const byPair = this.pair.retryAfter(key, now);
    if (byPair > 0) return { allowed: false, reason: 'pair', retryAfter: byPair };
    const last = this.pair.latest(key, now);
    const waitMs = last === undefined ? 0 : last + backoffSeconds(this.pair.count(key, now)) * 1000 - now;
    if (waitMs > 0) return { allowed: false, reason: 'pair', retryAfter: Math.ceil(waitMs / 1000) };
    const byAccount = this.account.retryAfter(email, now);
    if (byAccount > 0 && !this.isTrusted(email, ip, now)) return { allowed: false, reason: 'account', retryAfter: byAccount };
    return { allowed: true };
  }

  /** Counts a failure; `underAttack` is true once an hour, when the account reaches its ceiling
   * (the moment to mail its owner the unlock link). */
  failed(email: string, ip: string, now: number): { underAttack: boolean } {
    this.pair.hit(`${email}\n${ip}`, now);
    this.ip.hit(ip, now);
    this.account.hit(email, now);
    if (this.account.retryAfter(email, now) === 0 || this.unlockMailed.retryAfter(email, now) > 0) return { underAttack: false };
    this.unlockMailed.hit(email, now);
    return { underAttack: true };
  }

  succeeded(email: string, ip: string, now: number): void {
    this.pair.clear(`${email}\n${ip}`);
    this.trust(email, ip, now);
  }

  /** The owner uses this address: it gets through while the account is under attack. */
  trust(email: string, ip: string, now: number): void {
    let list = this.trusted.get(email);
    if (!list) {
      if (this.trusted.size >= MAX_KEYS) this.trusted.delete(this.trusted.keys().next().value as string);
      list = new Map();
      this.trusted.set(email, list);
    }
    list.delete(ip);
    list.set(ip, now + TRUST_MS);
    if (list.size > TRUSTED_PER_ACCOUNT) list.delete(list.keys().next().value as string);
    this.pair.clear(`${email}\n${ip}`);
  }

  private isTrusted(email: string, ip: string, now: number): boolean {
    const until = this.trusted.get(email)?.get(ip);
    return until !== undefined && until > now;
  }
}

interface Limiters {
  login: LoginGuard;
  forgotEmail: SlidingWindow;
  forgotIp: SlidingWindow;
  signupIp: SlidingWindow;
  signupEmail: SlidingWindow;
  audit: SlidingWindow;
  /** wrong two-factor codes per account (only someone who knows the password gets this far) */
  totp: SlidingWindow;
}

const byServices = new WeakMap<Services, Limiters>();

export function limiters(services: Services): Limiters {
  let l = byServices.get(services);
  if (!l) {
    l = {
      login: new LoginGuard(),
      forgotEmail: new SlidingWindow(5, HOUR),
      forgotIp: new SlidingWindow(30, HOUR),
      signupIp: new SlidingWindow(20, HOUR),
      signupEmail: new SlidingWindow(5, HOUR),
      audit: new SlidingWindow(120, 60_000),
      totp: new SlidingWindow(5, 15 * 60_000),
    };
    byServices.set(services, l);
  }
  return l;
}

export function tooManyAttempts(retryAfter: number, what = 'Too many failed sign-in attempts.', after = ''): DomainError {
  const minutes = Math.max(1, Math.ceil(retryAfter / 60));
  return new DomainError('rate_limited', `${what} Please try again in ${minutes} minute${minutes === 1 ? '' : 's'}.${after}`, {
    retryAfter,
  });
}
