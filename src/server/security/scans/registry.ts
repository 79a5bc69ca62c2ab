// Every check a vulnerability scan runs, in order, one module each (checks/). A new check is a
// module exporting a ScanCheck plus its line here.
import { cookieFlags } from './checks/cookies.ts';
import { exposedPaths } from './checks/exposed-paths.ts';
import { securityHeaders } from './checks/headers.ts';
import { jsLibraries } from './checks/js-libraries.ts';
import { openPorts } from './checks/open-ports.ts';
import { tlsProblems } from './checks/tls.ts';
import type { ScanCheck } from './types.ts';

export type CheckName = 'headers' | 'cookies' | 'exposed_paths' | 'open_ports' | 'tls' | 'js_libraries';

export const SCAN_CHECKS: Record<CheckName, ScanCheck> = {
  headers: securityHeaders,
  cookies: cookieFlags,
  exposed_paths: exposedPaths,
  open_ports: openPorts,
  tls: tlsProblems,
  js_libraries: jsLibraries,
};
