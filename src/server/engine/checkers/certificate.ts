// What a check keeps of the peer's certificate: when it expires, who issued it and whom it names.
// The names are the target's text: control characters out, folded and capped before storage.
import type { PeerCertificate } from 'node:tls';

export interface CertificateFacts {
  certExpiresAt: number | null;
  /** The issuer's organisation and common name, e.g. "Let's Encrypt R3" */
  certIssuer: string | null;
  /** The subject's common name, e.g. "example.com" */
  certSubject: string | null;
}

const NAME_MAX = 200;

/** A name field may repeat (string[]); the first one is shown. */
function field(v: string | string[] | undefined): string {
  const s = Array.isArray(v) ? (v[0] ?? '') : (v ?? '');
  return s
    .replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

const capped = (s: string): string | null => (s === '' ? null : s.length <= NAME_MAX ? s : `${s.slice(0, NAME_MAX - 1)}…`);

export function certificateFacts(peer: PeerCertificate | null | undefined): CertificateFacts {
  if (!peer || Object.keys(peer).length === 0) return { certExpiresAt: null, certIssuer: null, certSubject: null };
  const org = field(peer.issuer?.O);
  const cn = field(peer.issuer?.CN);
  // "Let's Encrypt" + "R3"; a common name that already says the organisation is not repeated.
  const issuer = org && cn && !cn.includes(org) ? `${org} ${cn}` : cn || org;
  const expires = peer.valid_to ? Date.parse(peer.valid_to) : Number.NaN;
  return {
    certExpiresAt: Number.isFinite(expires) ? expires : null,
    certIssuer: capped(issuer),
    certSubject: capped(field(peer.subject?.CN)),
  };
}
