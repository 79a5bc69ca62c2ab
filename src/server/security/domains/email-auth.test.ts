// DMARC, DKIM and MTA-STS records read as receivers read them.
import { describe, expect, it } from 'vitest';
import { mtaStsId, parseDkim, parseDmarc, parseMtaStsPolicy } from './email-auth.ts';

describe('e-mail authentication records', () => {
  it('reads a DMARC policy, its subdomain policy, percentage and report addresses', () => {
    expect(parseDmarc(['v=DMARC1; p=quarantine; sp=reject; pct=25; rua=mailto:a@example.com, mailto:b@example.com'])).toEqual({
      record: 'v=DMARC1; p=quarantine; sp=reject; pct=25; rua=mailto:a@example.com, mailto:b@example.com',
      policy: 'quarantine',
      subdomainPolicy: 'reject',
      pct: 25,
      rua: ['mailto:a@example.com', 'mailto:b@example.com'],
    });
    expect(parseDmarc(['v=spf1 -all'])).toEqual({ record: null, policy: null, subdomainPolicy: null, pct: 100, rua: [] });
    expect(parseDmarc(['v=DMARC1; pct=400']).pct).toBe(100);
  });

  it('tells a DKIM key present, revoked (empty p=) and missing', () => {
    expect(parseDkim('s1', ['v=DKIM1; k=ed25519; p=11qYAYKxCrfVS/7TyWQHOg7hcvPapiMlrwIaaPcHURo='])).toEqual({
      selector: 's1',
      status: 'present',
      keyType: 'ed25519',
    });
    expect(parseDkim('s2', ['v=DKIM1; p='])).toEqual({ selector: 's2', status: 'revoked', keyType: null });
    expect(parseDkim('s3', [])).toEqual({ selector: 's3', status: 'missing', keyType: null });
  });

  it('reads the MTA-STS record id and the policy file, refusing a file that is not STSv1', () => {
    expect(mtaStsId(['v=STSv1; id=20260101T000000;'])).toBe('20260101T000000');
    expect(mtaStsId(['v=spf1 -all'])).toBeNull();
    expect(
      parseMtaStsPolicy('version: STSv1\r\nmode: enforce\r\nmx: mail.example.com\r\nmx: *.example.net\r\nmax_age: 604800\r\n'),
    ).toEqual({
      mode: 'enforce',
      mx: ['mail.example.com', '*.example.net'],
      maxAge: 604800,
    });
    expect(parseMtaStsPolicy('<html>mode: enforce</html>')).toEqual({ mode: null, mx: [], maxAge: null });
  });
});
