// What a probe's delivery calls were judged on, remembered per token in this process (issue 27):
// the token's location, the companies shadowing its public slug and the assignment columns of the
// monitors its batches name. A call whose monitors are all remembered is judged on the memo and
// lands in one statement that first checks, in the database, that nothing it was judged on changed
// (probe-delivery-repo.ts: the token live, the location's slug, the shadowing companies, and each
// monitor's assignment_rev, which triggers move on every change of what decides assignment).
// When anything did, nothing is landed and the call is judged again on fresh reads. So the memo
// saves reads, never correctness: a revoked token, a paused or deleted monitor, a new private
// location are all seen by the very next call, on any process sharing the database.
//
// Why: under a loaded status page each statement of a call waits for a core, and a call's time is
// the sum of its waits (bench:probes replay: the reads before the landing were 15 ms of a 23 ms
// median call). With the memo a call is one round trip.
import type { AssignmentCandidate } from '../../db/repositories/probe-assignments-repo.ts';
import type { ProbeTokenAuthRow } from '../../db/repositories/probe-locations-repo.ts';
import { isAssigned } from './assignment-scope.ts';

declare module '../context.ts' {
  interface ProcessState {
    /** Delivery memos by probe token hash (delivery-memo.ts) */
    probeDeliveryMemos: DeliveryMemos;
  }
}

/** A monitor as a call judges it */
export type JudgedMonitor = Pick<AssignmentCandidate, 'id' | 'company_id' | 'type'>;

/**
 * Monitors remembered at most, over all tokens: each costs 110-190 bytes of heap (its id as the
 * key, a slot, a number; measured for 5 x 20,000 against 445 for the whole row), so at most about
 * 45 MiB. Past it, memos start over one at a time, and calls read afresh until theirs fill again:
 * slower, never wrong.
 */
const MAX_MONITORS = 250_000;
/** Tokens remembered at most (the oldest remembered is forgotten first) */
const MAX_TOKENS = 256;
/** company and kind pairs a memo tells apart (packed in 16 bits) */
const MAX_PAIRS = 65_536;
/** the largest rev a packed entry holds exactly (2^53 / 2^17) */
const MAX_REV = 2 ** 36;

export class DeliveryMemo {
  /** companies whose private location shadows this public slug, sorted as the database's "C" order */
  shadowed: string[] = [];
  /**
   * Per monitor id one number, not an object (a memo holds one per monitor the location checks):
   * (rev * 2^16 + pair) * 2 + assigned, where pair indexes `pairs` (its company and kind) and
   * assigned says whether the location may report on it, judged once when read.
   */
  readonly monitors = new Map<string, number>();
  private readonly pairs: Array<{ company_id: string; type: string }> = [];
  private readonly pairIndex = new Map<string, number>();

  token: Pick<ProbeTokenAuthRow, 'num' | 'slug' | 'company_id' | 'company_subdomain'>;

  constructor(token: DeliveryMemo['token']) {
    this.token = token;
  }

  covers(monitorIds: readonly string[]): boolean {
    return monitorIds.every((id) => this.monitors.has(id));
  }

  /** Its rev when read (the monitor must be remembered) */
  revOf(id: string): number {
    return Math.floor((this.monitors.get(id) as number) / 131_072);
  }

  /** The monitor when the location may report on it; null when not, undefined when not remembered */
  assigned(id: string): JudgedMonitor | null | undefined {
    const v = this.monitors.get(id);
    if (v === undefined) return undefined;
    if (v % 2 === 0) return null;
    const pair = this.pairs[Math.floor(v / 2) % MAX_PAIRS];
    return { id, company_id: pair.company_id, type: pair.type };
  }

  /** Remembers a monitor read; false when it cannot be packed (the memo is then full). */
  set(row: AssignmentCandidate, assigned: boolean): boolean {
    const rev = Number(row.assignment_rev);
    const key = `${row.company_id}\n${row.type}`;
    let pair = this.pairIndex.get(key);
    if (pair === undefined) {
      if (this.pairs.length >= MAX_PAIRS) return false;
      pair = this.pairs.push({ company_id: row.company_id, type: row.type }) - 1;
      this.pairIndex.set(key, pair);
    }
    if (!(rev >= 0 && rev < MAX_REV)) return false;
    this.monitors.set(row.id, (rev * MAX_PAIRS + pair) * 2 + (assigned ? 1 : 0));
    return true;
  }
}

/** Sorted by UTF-16 code units: the "C" collation's order for the ASCII ids companies have. */
export const sortedIds = (ids: Iterable<string>) => [...ids].sort();

export class DeliveryMemos {
  private readonly byHash = new Map<string, DeliveryMemo>();

  /** The memo of a token hash when it remembers every one of these monitors */
  covering(hash: string, monitorIds: readonly string[]): DeliveryMemo | undefined {
    const memo = this.byHash.get(hash);
    return memo?.covers(monitorIds) ? memo : undefined;
  }

  /** Monitors remembered over all tokens */
  get size(): number {
    let n = 0;
    for (const memo of this.byHash.values()) n += memo.monitors.size;
    return n;
  }

  /**
   * Remembers what a call read: `asked` are the monitors it asked for, `rows` those it found
   * (unknown ones, another company's, deleted ones are forgotten, so a call naming them reads again).
   */
  remember(
    hash: string,
    token: DeliveryMemo['token'],
    shadowed: Iterable<string>,
    asked: readonly string[],
    rows: readonly AssignmentCandidate[],
  ): void {
    let memo = this.byHash.get(hash);
    if (!memo || memo.token.num !== token.num || memo.token.slug !== token.slug) memo = this.fresh(hash, token);
    // the most recently remembered last, so the oldest is the one to forget
    this.byHash.delete(hash);
    this.byHash.set(hash, memo);
    while (this.size + rows.length > MAX_MONITORS && this.byHash.size > 1) this.byHash.delete(this.byHash.keys().next().value as string);
    if (memo.monitors.size + rows.length > MAX_MONITORS) memo = this.fresh(hash, token);
    memo.token = { num: token.num, slug: token.slug, company_id: token.company_id, company_subdomain: token.company_subdomain };
    memo.shadowed = sortedIds(shadowed);
    const loc = { slug: token.slug, companyId: token.company_id, shadowedFor: new Set(memo.shadowed) };
    for (const id of asked) memo.monitors.delete(id);
    for (const row of rows)
      if (!memo.set(row, isAssigned(loc, row))) {
        this.byHash.delete(hash);
        return;
      }
  }

  private fresh(hash: string, token: DeliveryMemo['token']): DeliveryMemo {
    this.byHash.delete(hash);
    if (this.byHash.size >= MAX_TOKENS) this.byHash.delete(this.byHash.keys().next().value as string);
    const memo = new DeliveryMemo(token);
    this.byHash.set(hash, memo);
    return memo;
  }

  forget(hash: string): void {
    this.byHash.delete(hash);
  }
}
