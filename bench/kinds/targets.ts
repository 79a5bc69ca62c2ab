// The loopback servers bench/kinds checks, one entry per kind: each starts what its kind talks to
// (the tests' own fixture servers, tests/fixtures and tests/support/kind-servers) and answers the
// config of a monitor that checks it and is up. Run in servers.ts's process, so their CPU is not
// the checker's. A kind with no entry is listed by the bench as not measured.
import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import type { MonitorType } from '../../src/server/db/schema/monitoring.ts';
import { startDnsServer } from '../../tests/fixtures/targets/dns-targets.ts';
import { startTlsTargets } from '../../tests/fixtures/targets/tls-targets.ts';
import { registration, startRdapKindServer } from '../../tests/support/kind-servers/rdap.ts';

export interface BenchTarget {
  /** The monitor's config: the kind's fields as the API takes them */
  config: Record<string, unknown>;
  /** Extra trusted CA certificates (PEM) the checker needs for this target */
  ca?: string;
  /** Settings the checker's process needs (e.g. DNS_RESOLVERS for a dns monitor) */
  dnsServers?: string[];
  /** The RDAP server answering for .test (RDAP_BASE_URLS test=…), for a domain monitor */
  rdap?: string;
}

type Start = () => Promise<BenchTarget>;

const listen = <S extends http.Server | net.Server>(s: S): Promise<number> =>
  new Promise((r) => s.listen(0, '127.0.0.1', () => r((s.address() as AddressInfo).port)));

export const TARGETS: Partial<Record<MonitorType, Start>> = {
  http: async () => {
    const port = await listen(
      http.createServer((_q, res) => {
        res.writeHead(200, { 'content-type': 'text/plain', 'content-length': '2' });
        res.end('ok');
      }),
    );
    return {
      config: { url: `http://127.0.0.1:${port}/health`, method: 'GET', accepted_status_codes: ['200-299'], follow_redirects: true },
    };
  },
  tcp: async () => {
    const port = await listen(net.createServer((s) => s.end()));
    return { config: { host: '127.0.0.1', port } };
  },
  dns: async () => {
    const dns = await startDnsServer({ answer: true, fallback: ['127.0.0.1'] });
    return { config: { host: 'bench.example.test', record_type: 'A', resolver: `127.0.0.1:${dns.port}`, expected_values: ['127.0.0.1'] } };
  },
  ssl: async () => {
    const tls = await startTlsTargets();
    return { config: { host: 'localhost', port: tls.port.valid, ssl_warning_days: [30, 14, 7, 1] }, ca: tls.caPem };
  },
  domain: async () => {
    const rdap = await startRdapKindServer();
    rdap.domains.set('bench.test', registration({ name: 'bench.test', expires: Date.now() + 200 * 86_400_000 }));
    return { config: { domain: 'bench.test', domain_warning_days: [30, 14, 7, 1] }, rdap: rdap.url };
  },
};
