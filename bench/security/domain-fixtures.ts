// Loopback side of the domain checks benchmark, in its own process so its CPU is not counted as
// the checker's: a DNS server serving `count` domains (d<i>.bench: NS, A, AAAA, MX, SPF with one
// include, DMARC, a DKIM key, a www CNAME) and an RDAP server answering each one's registration.
// Prints one JSON line: { dns: "127.0.0.1:port", rdap: "http://127.0.0.1:port/" }.
import { startDnsZoneServer } from '../../tests/fixtures/targets/dns-zone-server.ts';
import { rdapDomain, startRdapServer } from '../../tests/fixtures/targets/rdap-server.ts';

const count = Number(process.argv[2] ?? '1000');
const dns = await startDnsZoneServer();
const rdap = await startRdapServer();
dns.set('_spf.mailer.bench', [{ type: 'TXT', value: 'v=spf1 ip4:198.51.100.0/24 -all' }]);
for (let i = 0; i < count; i++) {
  const d = `d${i}.bench`;
  dns.set(d, [
    { type: 'NS', value: 'ns1.dnshost.bench' },
    { type: 'NS', value: 'ns2.dnshost.bench' },
    { type: 'A', value: `192.0.2.${i % 250}` },
    { type: 'AAAA', value: '2001:db8::1' },
    { type: 'MX', value: `10 mx.${d}` },
    { type: 'TXT', value: 'v=spf1 include:_spf.mailer.bench mx -all' },
  ]);
  dns.set(`_dmarc.${d}`, [{ type: 'TXT', value: 'v=DMARC1; p=reject' }]);
  dns.set(`s1._domainkey.${d}`, [{ type: 'TXT', value: 'v=DKIM1; k=rsa; p=MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEA' }]);
  dns.set(`www.${d}`, [{ type: 'CNAME', value: d }]);
  rdap.domains.set(
    d,
    rdapDomain({
      name: d,
      registrar: 'Bench Registrar',
      registered: '2020-01-01T00:00:00Z',
      expires: '2030-01-01T00:00:00Z',
      nameservers: ['ns1.dnshost.bench'],
    }),
  );
}
process.stdout.write(`${JSON.stringify({ dns: dns.server, rdap: rdap.url })}\n`);
