// The grade rubric (docs/features/ssl-tls-monitoring.md) case by case, on made-up probes: the score's
// letter, each cap, A+ and T.
import { describe, expect, it } from 'vitest';
import { cipherBits, gradeTls, hstsMaxAge } from './grade.ts';
import type { TlsProbe } from './probe.ts';

const NOW = Date.UTC(2026, 10, 24);
const DAY = 86_400_000;

const probe = (over: Partial<TlsProbe> = {}, cert: Partial<NonNullable<TlsProbe['cert']>> = {}): TlsProbe => ({
  host: 'example.com',
  port: 443,
  error: null,
  cert: {
    subject: 'CN=example.com',
    issuer: 'CN=R3',
    names: ['example.com'],
    validFrom: NOW - DAY,
    expiresAt: NOW + 90 * DAY,
    keyType: 'RSA',
    keyBits: 2048,
    signatureAlgorithm: 'sha256WithRSAEncryption',
    selfSigned: false,
    fingerprint256: 'AA',
    ...cert,
  },
  trusted: true,
  trustError: null,
  hostnameMatch: true,
  protocols: { TLSv1: false, 'TLSv1.1': false, 'TLSv1.2': true, 'TLSv1.3': true },
  ciphersSeen: ['TLS_AES_256_GCM_SHA384', 'ECDHE-RSA-AES128-GCM-SHA256'],
  weakCiphers: { null: false, anonymous: false, rsa_kx: false, cbc_sha1: false },
  ocspStapled: false,
  hsts: null,
  ...over,
});
const letter = (p: TlsProbe) => gradeTls(p, NOW).grade;

describe('TLS grade rubric', () => {
  it('scores protocols 30 %, key 30 %, ciphers 40 %', () => {
    // protocol 100, RSA 2048 → 90, ciphers (256 → 100, 128 → 80) → 90: 93
    expect(gradeTls(probe(), NOW)).toEqual({ grade: 'A', gradeIfTrusted: 'A', score: 93, caps: [] });
    // NULL suite seen: the weakest cipher scores 0
    expect(gradeTls(probe({ ciphersSeen: ['TLS_AES_256_GCM_SHA384', 'NULL-SHA'] }), NOW).score).toBe(30 + 27 + 20);
  });

  it("reads a suite's strength from its cipher, not its MAC", () => {
    const names = [
      'TLS_AES_256_GCM_SHA384',
      'TLS_AES_128_GCM_SHA256',
      'TLS_CHACHA20_POLY1305_SHA256',
      'AES128-GCM-SHA256',
      'ECDHE-RSA-AES256-SHA',
      'NULL-SHA256',
    ];
    expect(names.map(cipherBits)).toEqual([256, 128, 256, 128, 256, 0]);
  });

  it('caps: F for NULL or anonymous suites and RSA under 1024, C without TLS 1.2/1.3 or with SHA-1, B for TLS 1.0/1.1 or RSA under 2048, A- without TLS 1.3', () => {
    expect(letter(probe({ weakCiphers: { null: true, anonymous: false, rsa_kx: false, cbc_sha1: false } }))).toBe('F');
    expect(letter(probe({ weakCiphers: { null: false, anonymous: true, rsa_kx: false, cbc_sha1: false } }))).toBe('F');
    expect(letter(probe({}, { keyBits: 512 }))).toBe('F');
    expect(letter(probe({ protocols: { TLSv1: true, 'TLSv1.1': true, 'TLSv1.2': false, 'TLSv1.3': false } }))).toBe('C');
    expect(letter(probe({}, { signatureAlgorithm: 'sha1WithRSAEncryption' }))).toBe('C');
    expect(letter(probe({ protocols: { TLSv1: true, 'TLSv1.1': false, 'TLSv1.2': true, 'TLSv1.3': true } }))).toBe('B');
    expect(letter(probe({}, { keyBits: 1024 }))).toBe('B');
    expect(letter(probe({ protocols: { TLSv1: false, 'TLSv1.1': false, 'TLSv1.2': true, 'TLSv1.3': false } }))).toBe('A-');
    // RSA key exchange and CBC-SHA1 are findings, not caps
    expect(letter(probe({ weakCiphers: { null: false, anonymous: false, rsa_kx: true, cbc_sha1: true } }))).toBe('A');
  });

  it('A+ needs an uncapped A and HSTS of at least 180 days', () => {
    expect(letter(probe({ hsts: 'max-age=15552000' }))).toBe('A+');
    expect(letter(probe({ hsts: 'max-age=15551999' }))).toBe('A');
    expect(
      letter(probe({ hsts: 'max-age=31536000', protocols: { TLSv1: false, 'TLSv1.1': false, 'TLSv1.2': true, 'TLSv1.3': false } })),
    ).toBe('A-');
    expect([hstsMaxAge('max-age="600"; includeSubDomains'), hstsMaxAge('includeSubDomains'), hstsMaxAge(null)]).toEqual([600, 0, 0]);
  });

  it('T for an untrusted chain, an expired certificate or a wrong host, keeping the letter it would have', () => {
    expect(gradeTls(probe({ trusted: false, trustError: 'DEPTH_ZERO_SELF_SIGNED_CERT' }), NOW)).toMatchObject({
      grade: 'T',
      gradeIfTrusted: 'A',
    });
    expect(gradeTls(probe({}, { expiresAt: NOW - 1 }), NOW)).toMatchObject({ grade: 'T', gradeIfTrusted: 'A' });
    expect(gradeTls(probe({ hostnameMatch: false, hsts: 'max-age=31536000' }), NOW)).toMatchObject({ grade: 'T', gradeIfTrusted: 'A+' });
  });

  it('no grade without a handshake', () => {
    expect(letter(probe({ error: 'Target refused', cert: null }))).toBeNull();
  });
});
