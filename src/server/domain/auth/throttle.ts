// Sliding-window counters in memory: login failures per account and per IP, and other per-key
// rate limits (forgot-password, client audit events). One process keeps its own counters; with
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
  hit(key: string, now: number): void {
    const list = this.live(key, now);
    if (list.length === 0) {
      if (this.hits.size >= MAX_KEYS) this.hits.delete(this.hits.keys().next().value as string);
      this.hits.set(key, list);
    }
    list.push(now);
  }
  clear(key: string): void {
    this.hits.delete(key);
  }
}

/** Login: 100 failures an hour lock the account (the 101st attempt is refused, even with the
 * right password); 300 failures an hour from one IP lock that IP out. Flooding one account
 * never counts against another account. */
export const ACCOUNT_FAILURES_PER_HOUR = 100;
export const IP_FAILURES_PER_HOUR = 300;

interface Limiters {
  loginAccount: SlidingWindow;
  loginIp: SlidingWindow;
  forgotEmail: SlidingWindow;
  forgotIp: SlidingWindow;
  signupIp: SlidingWindow;
  audit: SlidingWindow;
}

const byServices = new WeakMap<Services, Limiters>();

export function limiters(services: Services): Limiters {
  let l = byServices.get(services);
  if (!l) {
    l = {
      loginAccount: new SlidingWindow(ACCOUNT_FAILURES_PER_HOUR, HOUR),
      loginIp: new SlidingWindow(IP_FAILURES_PER_HOUR, HOUR),
      forgotEmail: new SlidingWindow(5, HOUR),
      forgotIp: new SlidingWindow(30, HOUR),
      signupIp: new SlidingWindow(20, HOUR),
      audit: new SlidingWindow(120, 60_000),
    };
    byServices.set(services, l);
  }
  return l;
}

export function tooManyAttempts(retryAfter: number, what = 'Too many failed sign-in attempts.'): DomainError {
  const minutes = Math.max(1, Math.ceil(retryAfter / 60));
  return new DomainError('rate_limited', `${what} Please try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`, { retryAfter });
}
