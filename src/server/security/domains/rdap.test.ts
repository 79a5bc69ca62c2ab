// Which RDAP server answers for a domain (the shipped IANA bootstrap subset, the operator's
// overrides), and what an RDAP domain object says (RFC 9083).
import { describe, expect, it } from 'vitest';
import { parseRdapDomain } from './rdap.ts';
import { rdapDirectory, readBootstrap, SHIPPED_BOOTSTRAP } from '../../net/rdap-bootstrap.ts';

describe('RDAP', () => {
  it('finds base URLs in the shipped bootstrap file, and the operator overrides win and are trusted', () => {
    const file = readBootstrap(SHIPPED_BOOTSTRAP);
    expect(file.version).toBe('1.0');
    const dir = rdapDirectory(file, { org: 'http://127.0.0.1:9/', 'co.uk': 'https://rdap.example.net/uk' });
    expect(dir('www.Example.COM')).toEqual({ url: 'https://rdap.verisign.com/com/v1/', trusted: false });
    expect(dir('example.net')).toEqual({ url: 'https://rdap.verisign.com/net/v1/', trusted: false });
    expect(dir('example.org')).toEqual({ url: 'http://127.0.0.1:9/', trusted: true });
    expect(dir('shop.co.uk')).toEqual({ url: 'https://rdap.example.net/uk/', trusted: true });
    expect(dir('example.invalid')).toBeNull();
  });

  it('reads expiry, registration, registrar, status and name servers', () => {
    const r = parseRdapDomain({
      objectClassName: 'domain',
      ldhName: 'EXAMPLE.COM',
      status: ['client delete prohibited', 'client transfer prohibited'],
      events: [
        { eventAction: 'registration', eventDate: '1995-08-14T04:00:00Z' },
        { eventAction: 'expiration', eventDate: '2027-08-13T04:00:00Z' },
      ],
      entities: [
        { objectClassName: 'entity', roles: ['technical'], vcardArray: ['vcard', [['fn', {}, 'text', 'Not the registrar']]] },
        {
          objectClassName: 'entity',
          roles: ['registrar'],
          vcardArray: [
            'vcard',
            [
              ['version', {}, 'text', '4.0'],
              ['fn', {}, 'text', 'RESERVED-Internet Assigned Numbers Authority'],
            ],
          ],
        },
      ],
      nameservers: [{ ldhName: 'B.IANA-SERVERS.NET' }, { ldhName: 'A.IANA-SERVERS.NET.' }],
    });
    expect(r).toEqual({
      expiresAt: Date.UTC(2027, 7, 13, 4),
      registeredAt: Date.UTC(1995, 7, 14, 4),
      registrar: 'RESERVED-Internet Assigned Numbers Authority',
      status: ['client delete prohibited', 'client transfer prohibited'],
      nameservers: ['a.iana-servers.net', 'b.iana-servers.net'],
    });
    expect(() => parseRdapDomain({ objectClassName: 'entity' })).toThrow('the answer is not an RDAP domain object');
  });
});
