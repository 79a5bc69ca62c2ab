// Every monitor kind, one module each. The Record makes a kind of the OpenAPI document's
// MonitorType without a module a type error; tests/api/monitor-kinds.test.ts fails on a module
// the document does not describe.
import type { MonitorType } from '../../db/schema/monitoring.ts';
import { dnsKind } from './dns.ts';
import { grpcKind } from './grpc.ts';
import { domainKind } from './domain.ts';
import { groupKind } from './group.ts';
import { httpKind } from './http.ts';
import type { Kind } from './kind.ts';
import { pingKind } from './ping.ts';
import { pushKind } from './push.ts';
import { postgresKind } from './postgres.ts';
import { redisKind } from './redis.ts';
import { smtpKind } from './smtp.ts';
import { imapKind } from './imap.ts';
import { pop3Kind } from './pop3.ts';
import { mysqlKind } from './mysql.ts';
import { sslKind } from './ssl.ts';
import { tcpKind } from './tcp.ts';
import { udpKind } from './udp.ts';
import { websocketKind } from './websocket.ts';
import { apiFlowKind } from './api-flow.ts';
import { browserKind } from './browser.ts';

// `any`: each module is checked against its own config type where it is declared.
export const KINDS: Record<MonitorType, Kind<any>> = {
  http: httpKind,
  tcp: tcpKind,
  dns: dnsKind,
  ssl: sslKind,
  push: pushKind,
  ping: pingKind,
  udp: udpKind,
  grpc: grpcKind,
  domain: domainKind,
  group: groupKind,
  websocket: websocketKind,
  postgres: postgresKind,
  redis: redisKind,
  smtp: smtpKind,
  imap: imapKind,
  pop3: pop3Kind,
  mysql: mysqlKind,
  api_flow: apiFlowKind,
  browser: browserKind,
};

/** Every kind's config fields, in the order the monitor view lists them (each once). */
export const KIND_FIELDS: readonly string[] = [...new Set(Object.values(KINDS).flatMap((k) => k.fields))];

/** The kinds whose checks may talk TLS (they declare `tlsEndpoint`). */
export const TLS_KINDS: readonly MonitorType[] = (Object.keys(KINDS) as MonitorType[]).filter((t) => KINDS[t].tlsEndpoint);

export type { ConfigReader, Kind, TlsEndpoint } from './kind.ts';
