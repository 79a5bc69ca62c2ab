// The e-mail authentication records besides SPF: DMARC (RFC 7489) at _dmarc.<domain>, DKIM keys
// (RFC 6376) at <selector>._domainkey.<domain>, and MTA-STS (RFC 8461) at _mta-sts.<domain>.
// Pure parsing of the TXT strings; the lookups happen in domain-check.ts.

/** Tag-value lists as DMARC, DKIM and MTA-STS records write them: "v=DMARC1; p=none; rua=…" */
export function tags(record: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const part of record.split(';')) {
    const i = part.indexOf('=');
    if (i < 0) continue;
    const k = part.slice(0, i).trim().toLowerCase();
    if (k && !out.has(k)) out.set(k, part.slice(i + 1).trim());
  }
  return out;
}

export interface Dmarc {
  record: string | null;
  /** p=: none | quarantine | reject (null: the record has none, which receivers read as invalid) */
  policy: string | null;
  /** sp= (subdomains); null: as p */
  subdomainPolicy: string | null;
  /** pct= (0-100), 100 when absent */
  pct: number;
  rua: string[];
}

export function parseDmarc(txts: string[]): Dmarc {
  const record = txts.find((t) => /^v=DMARC1\s*(;|$)/i.test(t.trim())) ?? null;
  if (!record) return { record: null, policy: null, subdomainPolicy: null, pct: 100, rua: [] };
  const t = tags(record);
  const pct = Number(t.get('pct') ?? '100');
  return {
    record,
    policy: t.get('p')?.toLowerCase() ?? null,
    subdomainPolicy: t.get('sp')?.toLowerCase() ?? null,
    pct: Number.isInteger(pct) && pct >= 0 && pct <= 100 ? pct : 100,
    rua: (t.get('rua') ?? '')
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean),
  };
}

/** present: a key is published; revoked: p= is empty (RFC 6376 3.6.1); missing: no record */
export type DkimStatus = 'present' | 'revoked' | 'missing';

export interface Dkim {
  selector: string;
  status: DkimStatus;
  /** k= (rsa when absent) */
  keyType: string | null;
}

export function parseDkim(selector: string, txts: string[]): Dkim {
  const record = txts.find((t) => tags(t).has('p'));
  if (!record) return { selector, status: 'missing', keyType: null };
  const t = tags(record);
  const p = (t.get('p') ?? '').replace(/\s+/g, '');
  return { selector, status: p ? 'present' : 'revoked', keyType: p ? (t.get('k') ?? 'rsa').toLowerCase() : null };
}

/** The _mta-sts TXT record's id (null: no record), per RFC 8461 3.1 */
export function mtaStsId(txts: string[]): string | null {
  const record = txts.find((t) => /^v=STSv1\s*(;|$)/i.test(t.trim()));
  return record ? (tags(record).get('id') ?? null) : null;
}

export interface MtaStsPolicy {
  mode: string | null;
  mx: string[];
  maxAge: number | null;
}

/** The policy file's "key: value" lines (RFC 8461 3.2) */
export function parseMtaStsPolicy(text: string): MtaStsPolicy {
  const policy: MtaStsPolicy = { mode: null, mx: [], maxAge: null };
  let version = false;
  for (const line of text.split(/\r?\n/)) {
    const i = line.indexOf(':');
    if (i < 0) continue;
    const k = line.slice(0, i).trim().toLowerCase();
    const v = line.slice(i + 1).trim();
    if (k === 'version') version = v === 'STSv1';
    else if (k === 'mode') policy.mode = v.toLowerCase();
    else if (k === 'mx') policy.mx.push(v.toLowerCase());
    else if (k === 'max_age' && /^\d+$/.test(v)) policy.maxAge = Number(v);
  }
  return version ? policy : { mode: null, mx: [], maxAge: null };
}
