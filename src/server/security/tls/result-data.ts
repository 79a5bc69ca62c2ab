// What one TLS analysis stores (security_results.data for source 'ssl', and
// tls_monitor_analyses.data): the probe's facts in the shape the screens and the /security
// overview read. `cert_expires_at` and `issuer` are the overview's contract. Pure.
import type { GradeResult } from './grade.ts';
import { hstsMaxAge } from './grade.ts';
import { PROTOCOLS, type TlsProbe, type WeakCipherFamily } from './probe.ts';

export interface SslResultData {
  host: string;
  port: number;
  /** Why no handshake was possible; null when one was */
  error: string | null;
  cert_expires_at: number | null;
  cert_valid_from: number | null;
  issuer: string | null;
  subject: string | null;
  names: string[];
  key_type: string | null;
  key_bits: number | null;
  signature_algorithm: string | null;
  self_signed: boolean;
  fingerprint256: string | null;
  trusted: boolean;
  trust_error: string | null;
  hostname_match: boolean;
  /** Offered, oldest first: 'TLSv1', 'TLSv1.1', 'TLSv1.2', 'TLSv1.3' */
  protocols: string[];
  weak_ciphers: WeakCipherFamily[];
  ciphers: string[];
  ocsp_stapled: boolean;
  hsts: string | null;
  hsts_max_age: number;
  score: number;
  grade_if_trusted: string | null;
  caps: string[];
}

export function sslResultData(p: TlsProbe, g: GradeResult): SslResultData {
  const c = p.cert;
  return {
    host: p.host,
    port: p.port,
    error: p.error,
    cert_expires_at: c?.expiresAt ?? null,
    cert_valid_from: c?.validFrom ?? null,
    issuer: c?.issuer ?? null,
    subject: c?.subject ?? null,
    names: c?.names ?? [],
    key_type: c?.keyType ?? null,
    key_bits: c?.keyBits ?? null,
    signature_algorithm: c?.signatureAlgorithm ?? null,
    self_signed: c?.selfSigned ?? false,
    fingerprint256: c?.fingerprint256 ?? null,
    trusted: p.trusted,
    trust_error: p.trustError,
    hostname_match: p.hostnameMatch,
    protocols: PROTOCOLS.filter((v) => p.protocols[v]),
    weak_ciphers: (Object.keys(p.weakCiphers) as WeakCipherFamily[]).filter((f) => p.weakCiphers[f]),
    ciphers: p.ciphersSeen,
    ocsp_stapled: p.ocspStapled,
    hsts: p.hsts,
    hsts_max_age: hstsMaxAge(p.hsts),
    score: g.score,
    grade_if_trusted: g.gradeIfTrusted,
    caps: g.caps,
  };
}
