// Risky services reachable from the internet: a TCP connect (short time-out, paced like the
// HTTP requests, to the address the SSRF guard accepted) to each port of a bounded list.
// Nothing is sent: an accepted connection is the finding.
import net from 'node:net';
import type { FindingSeverity } from '../../../db/schema/security.ts';
import { resolveSafe } from '../../../engine/ssrf.ts';
import type { ScanCheck, ScanFinding } from '../types.ts';

interface RiskyService {
  port: number;
  label: string;
  severity: FindingSeverity;
}

export const RISKY_SERVICES: Record<string, RiskyService> = {
  ftp: { port: 21, label: 'FTP', severity: 'medium' },
  telnet: { port: 23, label: 'Telnet', severity: 'high' },
  smb: { port: 445, label: 'SMB', severity: 'high' },
  mssql: { port: 1433, label: 'Microsoft SQL Server', severity: 'high' },
  mysql: { port: 3306, label: 'MySQL', severity: 'high' },
  rdp: { port: 3389, label: 'Remote Desktop (RDP)', severity: 'high' },
  postgresql: { port: 5432, label: 'PostgreSQL', severity: 'high' },
  vnc: { port: 5900, label: 'VNC', severity: 'high' },
  redis: { port: 6379, label: 'Redis', severity: 'critical' },
  elasticsearch: { port: 9200, label: 'Elasticsearch', severity: 'critical' },
  memcached: { port: 11211, label: 'Memcached', severity: 'high' },
  mongodb: { port: 27017, label: 'MongoDB', severity: 'critical' },
};

function connects(address: string, port: number, timeoutMs: number, signal: AbortSignal): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host: address, port });
    const done = (open: boolean) => {
      clearTimeout(timer);
      signal.removeEventListener('abort', aborted);
      socket.destroy();
      resolve(open);
    };
    const aborted = () => done(false);
    const timer = setTimeout(() => done(false), timeoutMs);
    signal.addEventListener('abort', aborted, { once: true });
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

export const openPorts: ScanCheck = {
  label: 'open ports',
  async run(ctx) {
    const { env } = ctx;
    const ports = env.options.ports ?? Object.fromEntries(Object.entries(RISKY_SERVICES).map(([k, s]) => [k, s.port]));
    const probes = Object.entries(ports).map(async ([service, port]): Promise<ScanFinding | null> => {
      const known = RISKY_SERVICES[service];
      if (!known) return null;
      await ctx.fetcher.pace();
      const { address } = await resolveSafe(ctx.hostname, env.allowPrivateTargets, env.resolve, ctx.signal);
      if (!(await connects(address, port, env.options.portTimeoutMs, ctx.signal))) return null;
      return {
        key: `port.${service}`,
        severity: known.severity,
        title: `${known.label} port open to the internet`,
        evidence: `TCP connect to ${ctx.hostname}:${port} (${known.label}) accepted`,
      };
    });
    return (await Promise.all(probes)).filter((f) => f !== null);
  },
};
