// The public security panel of a status page (issue 32): for each verified domain or host of
// the company, what the security suite last measured (TLS grade, HSTS, SPF and DMARC, days to
// certificate and registration expiry), each with the date it was measured. The server builds
// it from stored results only (no scan runs when a visitor looks); pages and the console's
// preview draw it. Pure; imports nothing of ours.

/** The TLS analysis of a host (security_results source 'ssl'). */
export interface PanelTls {
  measuredAt: number;
  /** A+ .. F; null: no handshake was possible */
  grade: string | null;
  hsts: { present: boolean; maxAge: number; preload: boolean };
  /** the certificate's notAfter (ms), null when none was seen */
  certExpiresAt: number | null;
}

/** The domain check of a domain (security_results source 'dns'). */
export interface PanelDns {
  measuredAt: number;
  spf: { pass: boolean; all: string | null } | null;
  dmarc: { pass: boolean; policy: string | null } | null;
  registrationExpiresAt: number | null;
}

export interface PanelDomain {
  hostname: string;
  kind: 'domain' | 'host';
  /** null: a host's TLS (or a domain's DNS) was not measured yet; absent: not measured for this kind */
  tls?: PanelTls | null;
  dns?: PanelDns | null;
}

export interface SecurityPanelView {
  domains: PanelDomain[];
}

/** The SPF record's verdict: one record, no "+all", within the 10-lookup limit, nothing broken. */
export function spfPasses(spf: { record: string | null; count: number; all: string | null; lookups: number; broken?: string[] }): boolean {
  return spf.record !== null && spf.count === 1 && spf.all !== '+' && spf.lookups <= 10 && (spf.broken?.length ?? 0) === 0;
}

/** DMARC acts on failing mail: a record with p=quarantine or p=reject. */
export function dmarcPasses(dmarc: { record: string | null; policy: string | null }): boolean {
  return dmarc.record !== null && (dmarc.policy === 'quarantine' || dmarc.policy === 'reject');
}

/** HSTS as a header states it: present, its max-age (s) and the preload token. */
export function hstsOf(header: string | null, maxAge: number): PanelTls['hsts'] {
  return { present: header !== null && header.trim() !== '', maxAge, preload: /(?:^|;)\s*preload\s*(?:;|$)/i.test(header ?? '') };
}

const DAY_MS = 86_400_000;

/** Whole days from `now` to `at` (negative once past), rounded down. */
export function daysUntil(at: number, now: number): number {
  return Math.floor((at - now) / DAY_MS);
}
