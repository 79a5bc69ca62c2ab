// The IdP's signing certificates as an admin pastes them (PEM, or the bare base64 of the IdP's
// metadata): read with node:crypto, each checked to parse and to be valid now, so a wrong paste
// or an expired certificate is said on save rather than at the first refused sign-in. Pure.
import { X509Certificate } from 'node:crypto';

export interface CertSummary {
  subject: string;
  not_after: string;
  /** SHA-256 fingerprint, as IdP consoles show it (AA:BB:...) */
  fingerprint_sha256: string;
}

const BLOCK = /-----BEGIN CERTIFICATE-----([\s\S]*?)-----END CERTIFICATE-----/g;

/** The base64 bodies of the certificates in `text` (PEM blocks, or one bare base64 certificate). */
export function certificateBodies(text: string): string[] {
  const blocks = [...text.matchAll(BLOCK)].map((m) => m[1].replace(/\s+/g, ''));
  if (blocks.length > 0) return blocks;
  const bare = text.replace(/\s+/g, '');
  return bare ? [bare] : [];
}

export function toPem(body: string): string {
  return `-----BEGIN CERTIFICATE-----\n${body.match(/.{1,64}/g)!.join('\n')}\n-----END CERTIFICATE-----\n`;
}

/** The PEM of a certificate that parses and is valid at `now`, or the reason it cannot be used. */
export function checkCertificate(body: string, now: number): { pem: string; summary: CertSummary } | { error: string } {
  if (!/^[A-Za-z0-9+/]+=*$/.test(body)) return { error: 'is not a PEM certificate (-----BEGIN CERTIFICATE----- ...)' };
  let cert: X509Certificate;
  const pem = toPem(body);
  try {
    cert = new X509Certificate(pem);
  } catch {
    return { error: 'does not parse as an X.509 certificate' };
  }
  const notAfter = Date.parse(cert.validTo);
  const notBefore = Date.parse(cert.validFrom);
  if (notAfter <= now) return { error: `expired on ${new Date(notAfter).toISOString().slice(0, 10)}` };
  if (notBefore > now) return { error: `is not valid before ${new Date(notBefore).toISOString().slice(0, 10)}` };
  return { pem, summary: summarize(cert) };
}

function summarize(cert: X509Certificate): CertSummary {
  return {
    subject: cert.subject.replace(/\n/g, ', ').slice(0, 300),
    not_after: new Date(Date.parse(cert.validTo)).toISOString(),
    fingerprint_sha256: cert.fingerprint256,
  };
}

/** What the settings screen shows of stored certificates (never fails: a stored one parsed on save). */
export function certificateSummaries(pems: readonly string[]): CertSummary[] {
  return pems.flatMap((pem) => {
    try {
      return [summarize(new X509Certificate(pem))];
    } catch {
      return [];
    }
  });
}
