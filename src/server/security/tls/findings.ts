// The problems a TLS probe shows, as findings with stable keys (securityFindingsRepo.record
// opens, keeps and fixes them by key). Pure. docs/features/ssl-tls-monitoring.md lists the keys.
import type { FindingInput } from '../../db/repositories/security-findings-repo.ts';
import { DAY_MS } from '../../../lib/timeline.ts';
import type { TlsProbe } from './probe.ts';

/** Days before expiry from which an expiring certificate is a finding (the first warning threshold) */
export const EXPIRING_FINDING_DAYS = 30;

/** The finding key that the expiry warnings (warnings.ts) speak for: no second warning when it opens */
export const EXPIRING_KEY = 'tls.cert.expiring';

const TRUST_TEXT: Record<string, string> = {
  DEPTH_ZERO_SELF_SIGNED_CERT: 'The certificate is self-signed',
  SELF_SIGNED_CERT_IN_CHAIN: 'The chain ends in a self-signed certificate that is not trusted',
  UNABLE_TO_GET_ISSUER_CERT_LOCALLY: 'The issuer is not trusted (or the chain is incomplete)',
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: 'The issuer is not trusted (or the chain is incomplete)',
  CERT_HAS_EXPIRED: 'A certificate in the chain has expired',
  CERT_NOT_YET_VALID: 'The certificate is not valid yet',
};

export function tlsFindings(p: TlsProbe, now: number): FindingInput[] {
  if (p.error !== null) return [{ key: 'tls.unreachable', severity: 'high', title: 'No TLS handshake was possible', evidence: p.error }];
  const out: FindingInput[] = [];
  const add = (key: string, severity: FindingInput['severity'], title: string, evidence: string) =>
    out.push({ key, severity, title, evidence });
  const c = p.cert;
  if (c) {
    const daysLeft = Math.floor((c.expiresAt - now) / DAY_MS);
    const on = new Date(c.expiresAt).toISOString().slice(0, 10);
    if (c.expiresAt <= now) add('tls.cert.expired', 'critical', 'The certificate has expired', `Expired on ${on}`);
    else if (daysLeft <= EXPIRING_FINDING_DAYS)
      add(
        EXPIRING_KEY,
        daysLeft <= 7 ? 'high' : daysLeft <= 14 ? 'medium' : 'low',
        `The certificate expires in ${daysLeft} days`,
        `Expires on ${on}`,
      );
    // An expired certificate is reported once, as expired, not again as untrusted.
    if (!p.trusted && p.trustError !== 'CERT_HAS_EXPIRED')
      add(
        'tls.cert.untrusted',
        'high',
        TRUST_TEXT[p.trustError ?? ''] ?? 'The certificate chain is not trusted',
        `${p.trustError}; issuer: ${c.issuer}`,
      );
    if (!p.hostnameMatch)
      add('tls.cert.hostname', 'high', `The certificate does not cover ${p.host}`, `Names covered: ${c.names.join(', ') || c.subject}`);
    if (c.keyType === 'RSA' && (c.keyBits ?? 0) < 2048)
      add(
        'tls.key.weak',
        (c.keyBits ?? 0) < 1024 ? 'critical' : 'high',
        `RSA key of ${c.keyBits} bits (2048 or more expected)`,
        `${c.keyType} ${c.keyBits}`,
      );
    if (/sha1|md5/i.test(c.signatureAlgorithm))
      add('tls.cert.weak_signature', 'medium', 'The certificate is signed with a broken hash', c.signatureAlgorithm);
  }
  if (p.protocols.TLSv1) add('tls.protocol.tls1_0', 'medium', 'TLS 1.0 is offered', 'A TLS 1.0-only handshake succeeded');
  if (p.protocols['TLSv1.1']) add('tls.protocol.tls1_1', 'medium', 'TLS 1.1 is offered', 'A TLS 1.1-only handshake succeeded');
  if (!p.protocols['TLSv1.2'] && !p.protocols['TLSv1.3'])
    add('tls.protocol.no_modern', 'high', 'Neither TLS 1.2 nor TLS 1.3 is offered', 'Both handshakes failed');
  if (!p.protocols['TLSv1.3']) add('tls.protocol.no_tls1_3', 'low', 'TLS 1.3 is not offered', 'A TLS 1.3-only handshake failed');
  const w = p.weakCiphers;
  if (w.null) add('tls.cipher.null', 'critical', 'Cipher suites without encryption (NULL) are accepted', 'eNULL handshake succeeded');
  if (w.anonymous)
    add('tls.cipher.anonymous', 'critical', 'Anonymous cipher suites (no authentication) are accepted', 'aNULL handshake succeeded');
  if (w.rsa_kx) add('tls.cipher.rsa_kx', 'low', 'RSA key exchange (no forward secrecy) is accepted', 'kRSA handshake succeeded');
  if (w.cbc_sha1) add('tls.cipher.cbc_sha1', 'low', 'CBC cipher suites with SHA-1 are accepted', 'SHA1 handshake succeeded');
  return out;
}
