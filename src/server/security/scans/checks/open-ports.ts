// Risky services reachable from the internet: a TCP connect (short time-out, paced like the
// HTTP requests, to the address the SSRF guard accepted) to each port of a bounded list.
// Nothing is sent: an accepted connection is the finding.
import net from 'node:net';
import { RISKY_SERVICES } from '../../../../lib/risky-services.ts';
import { resolveSafe } from '../../../net/ssrf.ts';
import type { ScanCheck, ScanFinding } from '../types.ts';

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
