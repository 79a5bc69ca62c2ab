// SPF (RFC 7208): the domain's record parsed into its terms, and the DNS lookups a receiver
// makes to evaluate it counted the way section 4.6.4 does: each include, a, mx, ptr and exists
// mechanism and the redirect modifier cost one, and the records an include or redirect names are
// counted too. More than 10 makes receivers answer permerror: the domain's mail then fails SPF.
export type Qualifier = '+' | '-' | '~' | '?';

export interface SpfTerm {
  qualifier: Qualifier;
  /** all, include, a, mx, ptr, ip4, ip6, exists; or redirect / exp (modifiers, qualifier '+') */
  name: string;
  value: string | null;
}

export interface SpfAnalysis {
  /** The record found (null: none) */
  record: string | null;
  /** How many v=spf1 records the name has (more than one is a permerror) */
  count: number;
  terms: SpfTerm[];
  /** The qualifier of `all` in effect (after redirects); null when the record ends without one */
  all: Qualifier | null;
  /** DNS lookups evaluation costs, includes and redirects followed */
  lookups: number;
  /** Names an include or redirect points at that have no SPF record (or loop) */
  broken: string[];
}

/** Terms that make a receiver query DNS (RFC 7208 4.6.4) */
const LOOKUP_TERMS = new Set(['include', 'a', 'mx', 'ptr', 'exists', 'redirect']);
/** Bounds the walk through includes: enough to count well past the limit of 10 */
const MAX_RECORDS = 40;

export const isSpf = (txt: string) => /^v=spf1(\s|$)/i.test(txt.trim());

export function parseSpf(record: string): SpfTerm[] {
  return record
    .trim()
    .split(/\s+/)
    .slice(1)
    .filter(Boolean)
    .map((t) => {
      const q = /^[+\-~?]/.test(t) ? (t[0] as Qualifier) : '+';
      const body = /^[+\-~?]/.test(t) ? t.slice(1) : t;
      const modifier = /^([a-z][a-z0-9_.-]*)=(.*)$/i.exec(body);
      if (modifier) return { qualifier: '+' as const, name: modifier[1].toLowerCase(), value: modifier[2] };
      const m = /^([a-z0-9]+)(?:[:/](.*))?$/i.exec(body);
      return { qualifier: q, name: (m?.[1] ?? body).toLowerCase(), value: m?.[2] ?? null };
    });
}

/** The v=spf1 records among a name's TXT strings */
export const spfRecords = (txts: string[]) => txts.filter(isSpf);

/**
 * Analyses `domain`'s SPF. `txtOf` answers a name's TXT records (each joined from its strings),
 * [] for none, and throws when the name cannot be asked.
 */
export async function analyseSpf(domain: string, txtOf: (name: string) => Promise<string[]>): Promise<SpfAnalysis> {
  const own = spfRecords(await txtOf(domain));
  const record = own[0] ?? null;
  const terms = record ? parseSpf(record) : [];
  const analysis: SpfAnalysis = { record, count: own.length, terms, all: null, lookups: 0, broken: [] };
  if (!record) return analysis;
  const visited = new Set([domain.toLowerCase()]);

  // Walks one record's terms, counting lookups and following include/redirect; answers its `all`.
  const walk = async (list: SpfTerm[]): Promise<Qualifier | null> => {
    let all: Qualifier | null = null;
    let redirect: string | null = null;
    for (const t of list) {
      if (LOOKUP_TERMS.has(t.name)) analysis.lookups += 1;
      if (t.name === 'all') all = t.qualifier;
      if (t.name === 'redirect' && t.value) redirect = t.value;
      if (t.name === 'include' && t.value) await follow(t.value);
    }
    // redirect applies only when the record has no `all` (RFC 7208 6.1)
    if (all === null && redirect) return follow(redirect);
    return all;
  };
  const follow = async (name: string): Promise<Qualifier | null> => {
    const n = name.toLowerCase().replace(/\.$/, '');
    if (visited.has(n) || visited.size >= MAX_RECORDS) {
      if (visited.has(n)) analysis.broken.push(n);
      return null;
    }
    visited.add(n);
    let found: string | undefined;
    try {
      found = spfRecords(await txtOf(n))[0];
    } catch {
      found = undefined;
    }
    if (!found) {
      analysis.broken.push(n);
      return null;
    }
    return walk(parseSpf(found));
  };
  analysis.all = await walk(terms);
  return analysis;
}
