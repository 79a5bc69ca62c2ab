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

export interface DeliveryMemo {
  token: Pick<ProbeTokenAuthRow, 'num' | 'slug' | 'company_id' | 'company_subdomain'>;
  /** companies whose private location shadows this public slug, sorted as the database's "C" order */
  shadowed: string[];
  /**
   * Per monitor: the assignment_rev it was read at, and the row when the location may report on
   * it (null when not: judged once when read, not on every call)
   */
  monitors: Map<string, { rev: number | string; assigned: AssignmentCandidate | null }>;
}

/** Tokens remembered at most (the oldest remembered is forgotten first) */
const MAX_TOKENS = 256;
/** Monitors one token's memo holds at most: a location's assignments are far fewer in practice */
const MAX_MONITORS = 200_000;

/** Sorted by UTF-16 code units: the "C" collation's order for the ASCII ids companies have. */
export const sortedIds = (ids: Iterable<string>) => [...ids].sort();

export class DeliveryMemos {
  private readonly byHash = new Map<string, DeliveryMemo>();

  /** The memo of a token hash when it remembers every one of these monitors */
  covering(hash: string, monitorIds: readonly string[]): DeliveryMemo | undefined {
    const memo = this.byHash.get(hash);
    return memo && monitorIds.every((id) => memo.monitors.has(id)) ? memo : undefined;
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
    const sameLocation = memo && memo.token.num === token.num && memo.token.slug === token.slug;
    if (!memo || !sameLocation || memo.monitors.size + rows.length > MAX_MONITORS) {
      this.byHash.delete(hash);
      if (this.byHash.size >= MAX_TOKENS) this.byHash.delete(this.byHash.keys().next().value as string);
      memo = { token, shadowed: [], monitors: new Map() };
      this.byHash.set(hash, memo);
    }
    memo.token = {
      num: token.num,
      slug: token.slug,
      company_id: token.company_id,
      company_subdomain: token.company_subdomain,
    };
    memo.shadowed = sortedIds(shadowed);
    const loc = { slug: token.slug, companyId: token.company_id, shadowedFor: new Set(memo.shadowed) };
    for (const id of asked) memo.monitors.delete(id);
    for (const row of rows) memo.monitors.set(row.id, { rev: row.assignment_rev, assigned: isAssigned(loc, row) ? row : null });
  }

  forget(hash: string): void {
    this.byHash.delete(hash);
  }
}
