import type { PeerCertificate } from 'node:tls';
import { describe, expect, it } from 'vitest';
import { certificateFacts } from './certificate.ts';

const peer = (over: Record<string, unknown>) => over as unknown as PeerCertificate;

describe('certificateFacts', () => {
  it("names the issuer by organisation and common name, as people read it ('Let's Encrypt R3')", () => {
    const f = certificateFacts(
      peer({ issuer: { O: "Let's Encrypt", CN: 'R3' }, subject: { CN: 'example.com' }, valid_to: 'Mar  1 12:00:00 2027 GMT' }),
    );
    expect(f).toEqual({ certIssuer: "Let's Encrypt R3", certSubject: 'example.com', certExpiresAt: Date.UTC(2027, 2, 1, 12) });
  });

  it('does not repeat an organisation the common name already says, and takes the first of repeated fields', () => {
    expect(certificateFacts(peer({ issuer: { O: 'DigiCert Inc', CN: 'DigiCert Inc TLS CA' } })).certIssuer).toBe('DigiCert Inc TLS CA');
    expect(certificateFacts(peer({ issuer: { CN: ['First CA', 'Second'] } })).certIssuer).toBe('First CA');
  });

  it("keeps a hostile target's names to one capped line without control characters", () => {
    const f = certificateFacts(peer({ issuer: { CN: `Evil\r\nInjected: yes\u0007${'x'.repeat(500)}` }, subject: { CN: '' } }));
    expect(f.certIssuer).toMatch(/^Evil Injected: yes x+…$/);
    expect(f.certIssuer!.length).toBe(200);
    expect(f.certSubject).toBeNull();
  });

  it('answers nothing for a plain connection or an unreadable expiry', () => {
    expect(certificateFacts(null)).toEqual({ certExpiresAt: null, certIssuer: null, certSubject: null });
    expect(certificateFacts(peer({})).certIssuer).toBeNull();
    expect(certificateFacts(peer({ issuer: { CN: 'A' }, valid_to: 'garbage' })).certExpiresAt).toBeNull();
  });
});
