// The probe protocol's shared rules (issue 27), used by the platform and the probe process alike:
// how an assignment set is fingerprinted, what a version says, and the protocol's bounds. Pure.

/** Longest long poll of GET /api/v1/probe/assignments, in seconds */
export const ASSIGNMENTS_MAX_WAIT_S = 30;
/** Results in one POST /api/v1/probe/results */
export const RESULTS_BATCH_MAX = 1000;
/** A result id (made by the probe) has at most this many characters */
export const RESULT_ID_MAX = 64;
/**
 * How long the platform remembers a result id (probe_results_seen), so a batch sent again is not
 * stored twice; a result older than this is refused, since its id may already be forgotten.
 */
export const RESULT_ID_RETENTION_MS = 7 * 24 * 3600_000;

/** 32-bit FNV-1a of a string */
function fnv1a(s: string): number {
  let h = 2166136261;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 16777619) >>> 0;
  return h;
}

/**
 * A fingerprint of a set of monitor ids, independent of their order: the sum of their hashes
 * (mod 2^32) with the count beside it. The probe compares it with its own set after applying a
 * delta; a mismatch (a monitor deleted or gone out of scope unseen) makes it fetch the whole set.
 */
export function idsHash(ids: Iterable<string>): string {
  let sum = 0;
  for (const id of ids) sum = (sum + fnv1a(id)) >>> 0;
  return sum.toString(16).padStart(8, '0');
}

/** What a version names: every change up to `rev`, and the set's size and fingerprint then. */
export interface AssignmentVersion {
  rev: number;
  count: number;
  hash: string;
}

export const formatVersion = (v: AssignmentVersion): string => `${v.rev}.${v.count}.${v.hash}`;

/** A version as the probe sent it back, or null for one it did not get from us (a full answer follows). */
export function parseVersion(s: string): AssignmentVersion | null {
  const m = /^(\d{1,15})\.(\d{1,9})\.([0-9a-f]{8})$/.exec(s);
  return m ? { rev: Number(m[1]), count: Number(m[2]), hash: m[3] } : null;
}
