// The domain's DNS records as a snapshot (NS, A, AAAA, MX, TXT, CAA; each set sorted so two
// snapshots compare as text) and the differences between two snapshots. A set that could not be
// asked (timeout, SERVFAIL) is null and never reported as changed.
import type { Resolver as CaresResolver } from 'node:dns/promises';
import { isInternalAnswer, type PrivateTargets } from '../../net/ssrf.ts';

export const RECORD_SETS = ['ns', 'a', 'aaaa', 'mx', 'txt', 'caa'] as const;
export type RecordSet = (typeof RECORD_SETS)[number];
export type Snapshot = Record<RecordSet, string[] | null>;

export interface RecordChange {
  set: RecordSet;
  added: string[];
  removed: string[];
}

/** Shown instead of an address internal to the platform's network (as the dns monitor does) */
export const HIDDEN_ADDRESS = '(non-public address)';

const codeOf = (e: unknown) => (e as NodeJS.ErrnoException).code ?? '';
/** "No such name" and "no record of this type" are answers (an empty set), not failures */
export const isNoData = (e: unknown) => codeOf(e) === 'ENODATA' || codeOf(e) === 'ENOTFOUND';

async function ask<T>(q: () => Promise<T[]>, show: (r: T) => string): Promise<string[] | null> {
  try {
    return [...new Set((await q()).map(show))].sort();
  } catch (e) {
    return isNoData(e) ? [] : null;
  }
}

export async function takeSnapshot(r: CaresResolver, domain: string, allowPrivate: PrivateTargets): Promise<Snapshot> {
  const address = (a: string) => (isInternalAnswer(a, allowPrivate) ? HIDDEN_ADDRESS : a);
  const [ns, a, aaaa, mx, txt, caa] = await Promise.all([
    ask(
      () => r.resolveNs(domain),
      (n) => n.toLowerCase(),
    ),
    ask(() => r.resolve4(domain), address),
    ask(() => r.resolve6(domain), address),
    ask(
      () => r.resolveMx(domain),
      (m) => `${m.priority} ${m.exchange.toLowerCase()}`,
    ),
    ask(
      () => r.resolveTxt(domain),
      (t) => t.join(''),
    ),
    ask(
      () => r.resolveCaa(domain),
      (c) => {
        // c-ares answers { critical, <tag>: value } (Node adds `type` when asked for ANY)
        const [tag, value] = Object.entries(c).find(([k]) => k !== 'critical' && k !== 'type') ?? ['', ''];
        return `${c.critical} ${tag} "${String(value)}"`;
      },
    ),
  ]);
  return { ns, a, aaaa, mx, txt, caa };
}

/** What changed from `before` to `after`, set by set; sets unknown in either are skipped. */
export function diffSnapshots(before: Snapshot | null, after: Snapshot): RecordChange[] {
  if (!before) return [];
  const changes: RecordChange[] = [];
  for (const set of RECORD_SETS) {
    const b = before[set];
    const a = after[set];
    if (!b || !a) continue;
    const added = a.filter((x) => !b.includes(x));
    const removed = b.filter((x) => !a.includes(x));
    if (added.length || removed.length) changes.push({ set, added, removed });
  }
  return changes;
}

/** One line per change for notifications: "MX: added 20 mx2.example.com; removed 10 mx.example.com" */
export function describeChange(c: RecordChange): string {
  const parts = [c.added.length ? `added ${c.added.join(', ')}` : '', c.removed.length ? `removed ${c.removed.join(', ')}` : ''];
  return `${c.set.toUpperCase()}: ${parts.filter(Boolean).join('; ')}`;
}
