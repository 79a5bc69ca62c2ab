import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../db/connect.ts';
import { DB_KINDS, freshDb } from '../../../../tests/support/test-db.ts';
import {
  ACCOUNT_FAILURES_PER_HOUR,
  IP_FAILURES_PER_HOUR,
  LoginGuard,
  PAIR_FAILURES_PER_HOUR,
  SlidingWindow,
  backoffSeconds,
} from './throttle.ts';

describe('sliding window', () => {
  it('allows `limit` hits per window and says how long to wait after that', () => {
    const w = new SlidingWindow(3, 60_000);
    const t0 = 1_000_000;
    expect(w.retryAfter('a', t0)).toBe(0);
    w.hit('a', t0);
    w.hit('a', t0 + 10_000);
    w.hit('a', t0 + 20_000);
    expect(w.retryAfter('a', t0 + 20_000)).toBe(40);
    expect(w.retryAfter('b', t0 + 20_000)).toBe(0);
    // the oldest hit leaves the window: one more is allowed
    expect(w.retryAfter('a', t0 + 60_001)).toBe(0);
    w.hit('a', t0 + 60_001);
    expect(w.retryAfter('a', t0 + 60_001)).toBe(10);
    w.clear('a');
    expect(w.retryAfter('a', t0 + 60_001)).toBe(0);
  });

  it('never answers less than a second while limited', () => {
    const w = new SlidingWindow(1, 1000);
    w.hit('k', 5000);
    expect(w.retryAfter('k', 5999)).toBe(1);
    expect(w.retryAfter('k', 6000)).toBe(0);
  });
});

// The guard counts in the database (shared by every process on it): each case gets its own.
describe.each(DB_KINDS)('sign-in guard on %s', (kind) => {
  const t0 = 10_000_000;
  let db: Db;
  beforeAll(async () => {
    db = await freshDb(kind);
  });
  afterAll(async () => {
    await db?.close();
  });
  /** A guard with no history: the shared table emptied first. */
  const fresh = async () => {
    await db.k.deleteFrom('throttle_hits').execute();
    return new LoginGuard(db);
  };

  it('locks an (account, address) pair after 10 failures an hour, not the account', async () => {
    const g = await fresh();
    let now = t0;
    for (let i = 0; i < PAIR_FAILURES_PER_HOUR; i++) {
      expect(await g.check('victim@example.com', '198.51.100.7', now)).toEqual({ allowed: true });
      await g.failed('victim@example.com', '198.51.100.7', now);
      now += 65_000; // past any wait between attempts
    }
    const locked = await g.check('victim@example.com', '198.51.100.7', now);
    expect(locked).toMatchObject({ allowed: false, reason: 'pair' });
    if (!locked.allowed) expect(locked.retryAfter).toBeGreaterThan(2000);
    // the owner at another address, and the attacker on another account, are not affected
    expect(await g.check('victim@example.com', '203.0.113.9', now)).toEqual({ allowed: true });
    expect(await g.check('other@example.com', '198.51.100.7', now)).toEqual({ allowed: true });
  });

  it('makes one address wait longer and longer between failed attempts on one account', async () => {
    expect([1, 2, 3, 4, 5, 6, 7, 8, 9].map(backoffSeconds)).toEqual([0, 0, 1, 2, 4, 8, 16, 32, 64]);
    const g = await fresh();
    for (let i = 0; i < 4; i++) await g.failed('a@example.com', '198.51.100.7', t0);
    expect(await g.check('a@example.com', '198.51.100.7', t0 + 1000)).toMatchObject({ allowed: false, reason: 'pair', retryAfter: 1 });
    expect(await g.check('a@example.com', '198.51.100.7', t0 + 2000)).toEqual({ allowed: true });
    expect(await g.check('a@example.com', '198.51.100.8', t0)).toEqual({ allowed: true });
  });

  it('locks an address after 300 failures an hour on any accounts', async () => {
    const g = await fresh();
    for (let i = 0; i < IP_FAILURES_PER_HOUR; i++) await g.failed(`spray${i}@example.com`, '198.51.100.7', t0);
    expect(await g.check('new@example.com', '198.51.100.7', t0)).toMatchObject({ allowed: false, reason: 'address' });
  });

  it('past 100 failures an hour from many addresses, lets in only addresses the owner is known to use, and asks once for an unlock mail', async () => {
    const g = await fresh();
    await g.succeeded('owner@example.com', '192.0.2.1', t0);
    const crossings: boolean[] = [];
    for (let i = 0; i < ACCOUNT_FAILURES_PER_HOUR + 5; i++)
      crossings.push((await g.failed('owner@example.com', `10.0.${i >> 8}.${i & 255}`, t0 + i)).underAttack);
    expect(crossings.filter(Boolean)).toHaveLength(1);
    expect(crossings.indexOf(true)).toBe(ACCOUNT_FAILURES_PER_HOUR - 1);
    const later = t0 + 1000;
    expect(await g.check('owner@example.com', '10.9.9.9', later)).toMatchObject({ allowed: false, reason: 'account' });
    // the owner's usual address still gets through, and so does one the unlock link trusted
    expect(await g.check('owner@example.com', '192.0.2.1', later)).toEqual({ allowed: true });
    await g.trust('owner@example.com', '10.9.9.9', later);
    expect(await g.check('owner@example.com', '10.9.9.9', later)).toEqual({ allowed: true });
    // an hour after the attack stops, everyone may try again
    expect(await g.check('owner@example.com', '10.8.8.8', t0 + 3600_000 + 1000)).toEqual({ allowed: true });
  });

  it('forgets a pair’s failures after a successful sign-in', async () => {
    const g = await fresh();
    for (let i = 0; i < 5; i++) await g.failed('a@example.com', '192.0.2.1', t0);
    await g.succeeded('a@example.com', '192.0.2.1', t0 + 60_000);
    expect(await g.check('a@example.com', '192.0.2.1', t0 + 60_000)).toEqual({ allowed: true });
  });
});
