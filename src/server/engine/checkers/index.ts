// One checker per monitor kind; the Record makes a new kind without a checker a type error.
import type { MonitorType } from '../../db/schema/monitoring.ts';
import { dnsChecker } from './dns.ts';
import { httpChecker } from './http.ts';
import { pushChecker } from './push.ts';
import { sslChecker } from './ssl.ts';
import { tcpChecker } from './tcp.ts';
import type { Checker } from './types.ts';

export const CHECKERS: Record<MonitorType, Checker> = {
  http: httpChecker,
  tcp: tcpChecker,
  dns: dnsChecker,
  ssl: sslChecker,
  push: pushChecker,
};
