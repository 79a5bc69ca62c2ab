// The loopback servers bench/kinds checks, one entry per kind: each starts what its kind talks to
// (the tests' own fixture servers, tests/fixtures and tests/support/kind-servers) and answers the
// config of a monitor that checks it and is up. Run in servers.ts's process, so their CPU is not
// the checker's. A kind with no entry is listed by the bench as not measured.
import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import type { MonitorType } from '../../src/server/db/schema/monitoring.ts';
import { startDnsServer } from '../../tests/fixtures/targets/dns-targets.ts';
import { startGrpcHealthServer } from '../../tests/support/kind-servers/grpc-health.ts';
import { startUdpServer } from '../../tests/support/kind-servers/udp.ts';
import { startWsServer } from '../../tests/support/kind-servers/websocket.ts';
import { makeCerts, startTlsTargets } from '../../tests/fixtures/targets/tls-targets.ts';
import { startImapServer, startPop3Server, startSmtpServer } from '../../tests/support/kind-servers/mail.ts';
import { startMariaDbServer } from '../../tests/support/mariadb-server.ts';
import { startPgCluster } from '../../tests/support/pg-cluster.ts';
import { startRedisServer } from '../../tests/support/redis-server.ts';
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
  // ping needs no server: the kernel answers echo requests on loopback.
  ping: async () => ({ config: { host: '127.0.0.1', packet_count: 1, max_packet_loss_percent: 0 } }),
  udp: async () => {
    const udp = await startUdpServer();
    return { config: { host: '127.0.0.1', port: udp.port, udp_payload: 'echo:PONG', udp_payload_format: 'text', udp_expect: 'PONG' } };
  },
  grpc: async () => {
    const grpc = await startGrpcHealthServer();
    return { config: { host: '127.0.0.1', port: grpc.port, grpc_service: '', grpc_tls: false, grpc_metadata: {} } };
  },
  websocket: async () => {
    const ws = await startWsServer();
    return { config: { url: ws.url('/echo'), ws_message: 'ping', ws_expect: 'ping', headers: {} } };
  },
  // The database kinds (issue 28): Debian's servers, each with a password (the checker logs in
  // every time), stopped when the servers' process exits.
  postgres: async () => {
    const pg = await startPgCluster({ password: BENCH_PASSWORD });
    process.once('exit', () => pg.stop());
    return { config: { url: pg.url.replace(`:${BENCH_PASSWORD}@`, '@'), password: BENCH_PASSWORD, db_query: 'SELECT 1' } };
  },
  mysql: async () => {
    const maria = await startMariaDbServer();
    process.once('exit', () => maria.kill());
    maria.sql(`CREATE USER 'bench'@'%' IDENTIFIED BY '${BENCH_PASSWORD}'; GRANT SELECT ON *.* TO 'bench'@'%'`);
    return { config: { url: `mysql://bench@127.0.0.1:${maria.port}/`, password: BENCH_PASSWORD, db_query: 'SELECT 1' } };
  },
  redis: async () => {
    const redis = await startRedisServer({ password: BENCH_PASSWORD });
    process.once('exit', () => redis.kill());
    return { config: { url: `redis://127.0.0.1:${redis.port}`, password: BENCH_PASSWORD } };
  },
  // The mail kinds over STARTTLS with a login: the session a mail monitor usually runs.
  smtp: () => mailTarget(startSmtpServer, 'starttls'),
  imap: () => mailTarget(startImapServer, 'starttls'),
  pop3: () => mailTarget(startPop3Server, 'starttls'),
  domain: async () => {
    const rdap = await startRdapKindServer();
    rdap.domains.set('bench.test', registration({ name: 'bench.test', expires: Date.now() + 200 * 86_400_000 }));
    return { config: { domain: 'bench.test', domain_warning_days: [30, 14, 7, 1] }, rdap: rdap.url };
  },
};

const BENCH_PASSWORD = 'bench-Pass-2026';

async function mailTarget(start: typeof startImapServer, tls: 'none' | 'starttls' | 'implicit'): Promise<BenchTarget> {
  const certs = makeCerts();
  const server = await start({ tls, cert: certs.certs.valid, user: 'bench', password: BENCH_PASSWORD });
  return {
    config: { host: 'localhost', port: server.port, mail_tls: tls, username: 'bench', password: BENCH_PASSWORD },
    ca: certs.ca,
  };
}
