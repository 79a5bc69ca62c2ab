// Sliding-window counters. The security throttles (sign-in failures per account and address,
// per address and per account; signup, password-reset and second-factor attempts; subscription
// confirmation mails per e-mail address) count in the database (throttle_hits, one row per event), so the limits hold across every process on one
// PostgreSQL, and SQLite takes the same path. Flood guards that protect one process's work
// (client audit events, subscriber forms, test-now) keep counting in memory (SlidingWindow).
import { createHash } from 'node:crypto';
import type { Db } from '../../db/connect.ts';
import { throttleRepo } from '../../db/repositories/throttle-repo.ts';
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

const keyHash = (key: string) => createHash('sha256').update(key).digest('base64url');

/** A sliding window like SlidingWindow, counted in the database: every process sees every hit. */
export class SharedWindow {
  readonly limit: number;
  readonly windowMs: number;
  private readonly db: Db;
  private readonly scope: string;
  constructor(db: Db, scope: string, limit: number, windowMs: number) {
    this.db = db;
    this.scope = scope;
    this.limit = limit;
    this.windowMs = windowMs;
  }
  /** The key's latest `limit` hits inside the window, newest first. */
  private recent(key: string, now: number): Promise<number[]> {
    return throttleRepo(this.db).recent(this.scope, keyHash(key), now - this.windowMs, this.limit);
  }
  /** Seconds until another hit is allowed, or 0 when the key is under its limit. */
  async retryAfter(key: string, now: number): Promise<number> {
    const hits = await this.recent(key, now);
    if (hits.length < this.limit) return 0;
    return Math.max(1, Math.ceil((hits[this.limit - 1] + this.windowMs - now) / 1000));
  }
  /** Hits of the key inside the window (at most `limit` count) and the latest one's time. */
  async state(key: string, now: number): Promise<{ count: number; latest: number | undefined; retryAfter: number }> {
    const hits = await this.recent(key, now);
    const retryAfter = hits.length < this.limit ? 0 : Math.max(1, Math.ceil((hits[this.limit - 1] + this.windowMs - now) / 1000));
    return { count: hits.length, latest: hits[0], retryAfter };
  }
  async hit(key: string, now: number): Promise<void> {
    await throttleRepo(this.db).add(this.scope, keyHash(key), now, now + this.windowMs);
  }
  /**
   * Counts a hit unless the key is at its limit; answers 0 when this hit is counted (allowed),
   * else the seconds to wait. One step for every process on the database: callers at the same
   * moment cannot get more than `limit` through between them.
   */
  async take(key: string, now: number): Promise<number> {
    const hits = await throttleRepo(this.db).addUnderLimit(
      this.scope,
      keyHash(key),
      now - this.windowMs,
      this.limit,
      now,
      now + this.windowMs,
    );
    return hits === null ? 0 : Math.max(1, Math.ceil((hits[this.limit - 1] + this.windowMs - now) / 1000));
  }
  async clear(key: string): Promise<void> {
    await throttleRepo(this.db).clear(this.scope, keyHash(key));
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

/** Seconds an address waits before its next attempt on an account it has failed `failures` times. */
export function backoffSeconds(failures: number): number {
  return failures < BACKOFF_FROM ? 0 : Math.min(MAX_BACKOFF_SECONDS, 2 ** (failures - BACKOFF_FROM));
}

export type LoginCheck = { allowed: true } | { allowed: false; reason: 'address' | 'pair' | 'account'; retryAfter: number };

export class LoginGuard {
  private readonly pair: SharedWindow;
  private readonly ip: SharedWindow;
  private readonly account: SharedWindow;
  private readonly unlockMailed: SharedWindow;
  /** account and address: one hit while the owner is known to use that address */
  private readonly trusted: SharedWindow;
  constructor(db: Db) {
    this.pair = new SharedWindow(db, 'login-pair', PAIR_FAILURES_PER_HOUR, HOUR);
    this.ip = new SharedWindow(db, 'login-ip', IP_FAILURES_PER_HOUR, HOUR);
    this.account = new SharedWindow(db, 'login-account', ACCOUNT_FAILURES_PER_HOUR, HOUR);
    this.unlockMailed = new SharedWindow(db, 'unlock-mailed', 1, HOUR);
    this.trusted = new SharedWindow(db, 'trusted', 1, TRUST_MS);
  }

  async check(email: string, ip: string, now: number): Promise<LoginCheck> {
    const byIp = await this.ip.retryAfter(ip, now);
    if (byIp > 0) return { allowed: false, reason: 'address', retryAfter: byIp };
    const pair = await this.pair.state(`${email}\n${ip}`, now);
    if (pair.retryAfter > 0) return { allowed: false, reason: 'pair', retryAfter: pair.retryAfter };
    const waitMs = pair.latest === undefined ? 0 : pair.latest + backoffSeconds(pair.count) * 1000 - now;
    if (waitMs > 0) return { allowed: false, reason: 'pair', retryAfter: Math.ceil(waitMs / 1000) };
    const byAccount = await this.account.retryAfter(email, now);
    if (byAccount > 0 && !(await this.isTrusted(email, ip, now))) return { allowed: false, reason: 'account', retryAfter: byAccount };
    return { allowed: true };
  }

  /** Counts a failure; `underAttack` is true once an hour, when the account reaches its ceiling
   * (the moment to mail its owner the unlock link). */
  async failed(email: string, ip: string, now: number): Promise<{ underAttack: boolean }> {
    await this.pair.hit(`${email}\n${ip}`, now);
    await this.ip.hit(ip, now);
    await this.account.hit(email, now);
    if ((await this.account.retryAfter(email, now)) === 0 || (await this.unlockMailed.retryAfter(email, now)) > 0)
      return { underAttack: false };
    await this.unlockMailed.hit(email, now);
    return { underAttack: true };
  }

  async succeeded(email: string, ip: string, now: number): Promise<void> {
    await this.trust(email, ip, now);
  }

  /** The owner uses this address: it gets through while the account is under attack. */
  async trust(email: string, ip: string, now: number): Promise<void> {
    const key = `${email}\n${ip}`;
    await this.trusted.clear(key);
    await this.trusted.hit(key, now);
    await this.pair.clear(key);
  }

  async isTrusted(email: string, ip: string, now: number): Promise<boolean> {
    return (await this.trusted.retryAfter(`${email}\n${ip}`, now)) > 0;
  }
}

/**
 * Wrong second-factor codes (authenticator or recovery codes), counted like sign-in failures so
 * that someone who knows the password cannot lock the owner out of two-factor sign-in:
 * - per (account, address): 5 wrong codes in 15 minutes and that address waits for the window;
 * - per account from all addresses together: past 30 an hour (guessing spread over many
 *   addresses) only addresses the owner is known to use (LoginGuard's trust) still get through.
 */
export const SECOND_FACTOR_PAIR_FAILURES = 5;
export const SECOND_FACTOR_PAIR_WINDOW_MS = 15 * 60_000;
export const SECOND_FACTOR_ACCOUNT_FAILURES_PER_HOUR = 30;

export type SecondFactorCheck = { allowed: true } | { allowed: false; reason: 'pair' | 'account'; retryAfter: number };

export class SecondFactorGuard {
  private readonly pair: SharedWindow;
  private readonly account: SharedWindow;
  private readonly unlockMailed: SharedWindow;
  private readonly login: LoginGuard;
  constructor(db: Db, login: LoginGuard) {
    this.pair = new SharedWindow(db, 'totp-pair', SECOND_FACTOR_PAIR_FAILURES, SECOND_FACTOR_PAIR_WINDOW_MS);
    this.account = new SharedWindow(db, 'totp-account', SECOND_FACTOR_ACCOUNT_FAILURES_PER_HOUR, HOUR);
    this.unlockMailed = new SharedWindow(db, 'totp-unlock-mailed', 1, HOUR);
    this.login = login;
  }

  async check(who: { userId: string; email: string; ip: string }, now: number): Promise<SecondFactorCheck> {
    const pair = await this.pair.retryAfter(`${who.userId}\n${who.ip}`, now);
    if (pair > 0) return { allowed: false, reason: 'pair', retryAfter: pair };
    const byAccount = await this.account.retryAfter(who.userId, now);
    if (byAccount > 0 && !(await this.login.isTrusted(who.email, who.ip, now)))
      return { allowed: false, reason: 'account', retryAfter: byAccount };
    return { allowed: true };
  }

  /** Counts a wrong code; `underAttack` is true once an hour, when the account reaches its
   * ceiling (the moment to mail its owner the unlock link, which makes their address trusted). */
  async failed(who: { userId: string; ip: string }, now: number): Promise<{ underAttack: boolean }> {
    await this.pair.hit(`${who.userId}\n${who.ip}`, now);
    await this.account.hit(who.userId, now);
    if ((await this.account.retryAfter(who.userId, now)) === 0 || (await this.unlockMailed.retryAfter(who.userId, now)) > 0)
      return { underAttack: false };
    await this.unlockMailed.hit(who.userId, now);
    return { underAttack: true };
  }

  /** A right code forgives that address's earlier mistakes (not the account-wide count). */
  async succeeded(who: { userId: string; ip: string }): Promise<void> {
    await this.pair.clear(`${who.userId}\n${who.ip}`);
  }
}

export interface Limiters {
  login: LoginGuard;
  forgotEmail: SharedWindow;
  forgotIp: SharedWindow;
  signupIp: SharedWindow;
  signupEmail: SharedWindow;
  /** subdomain availability checks per address (signup's live check): no cheap enumeration */
  subdomainCheck: SharedWindow;
  /** per session, in this process: a flood guard for the audit table, not a security limit */
  audit: SlidingWindow;
  /** wrong two-factor codes per (account, address) and per account */
  secondFactor: SecondFactorGuard;
}

export function newLimiters(db: Db): Limiters {
  const login = new LoginGuard(db);
  return {
    login,
    forgotEmail: new SharedWindow(db, 'forgot-email', 5, HOUR),
    forgotIp: new SharedWindow(db, 'forgot-ip', 30, HOUR),
    signupIp: new SharedWindow(db, 'signup-ip', 20, HOUR),
    signupEmail: new SharedWindow(db, 'signup-email', 5, HOUR),
    subdomainCheck: new SharedWindow(db, 'subdomain-check', 60, 10 * 60_000),
    audit: new SlidingWindow(120, 60_000),
    secondFactor: new SecondFactorGuard(db, login),
  };
}

declare module '../context.ts' {
  interface ProcessState {
    /** Sign-in, reset, signup, second-factor and audit limiters (this file) */
    throttles: Limiters;
  }
}

export function tooManyAttempts(retryAfter: number, what = 'Too many failed sign-in attempts.', after = ''): DomainError {
  const minutes = Math.max(1, Math.ceil(retryAfter / 60));
  return new DomainError('rate_limited', `${what} Please try again in ${minutes} minute${minutes === 1 ? '' : 's'}.${after}`, {
    retryAfter,
  });
}
