// The environment values the platform and the probe process (src/probe) read alike, parsed the
// same way in both: whole numbers, booleans, and the check settings (ALLOW_PRIVATE_TARGETS,
// DNS_RESOLVERS). A bad value throws ConfigError naming the variable and what it accepts.
import ipaddr from 'ipaddr.js';
import type { BrowserSettings } from './engine/checkers/browser/settings.ts';

export class ConfigError extends Error {}

export type Env = Record<string, string | undefined>;

export function fail(name: string, accepts: string, got: string): never {
  throw new ConfigError(`Invalid ${name}=${JSON.stringify(got)}: expected ${accepts}`);
}

export function int(env: Env, name: string, def: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return def;
  if (!/^\d+$/.test(raw)) fail(name, `a whole number from ${min} to ${max}`, raw);
  const n = Number(raw);
  if (n < min || n > max) fail(name, `a whole number from ${min} to ${max}`, raw);
  return n;
}

export function bool(env: Env, name: string, def: boolean): boolean {
  const raw = env[name];
  if (raw === undefined || raw === '') return def;
  if (/^(1|true|yes|on)$/i.test(raw)) return true;
  if (/^(0|false|no|off)$/i.test(raw)) return false;
  return fail(name, 'true or false', raw);
}

/** ALLOW_PRIVATE_TARGETS: true/false, or comma-separated CIDRs such as 10.0.0.0/8,fd12::/16 */
export function privateTargets(env: Env): boolean | string[] {
  const raw = env.ALLOW_PRIVATE_TARGETS;
  if (raw === undefined || raw === '' || /^(0|1|true|false|yes|no|on|off)$/i.test(raw)) return bool(env, 'ALLOW_PRIVATE_TARGETS', false);
  const list = raw
    .split(',')
    .map((c) => c.trim())
    .filter(Boolean);
  for (const cidr of list) {
    if (!ipaddr.isValidCIDR(cidr))
      return fail('ALLOW_PRIVATE_TARGETS', 'true, false, or comma-separated CIDRs such as 10.0.0.0/8,192.168.1.0/24', raw);
  }
  return list;
}

/** DNS_RESOLVERS: comma-separated servers such as 1.1.1.1, 10.0.0.2:5353, [2606:4700::1111]:53 */
export function dnsResolvers(env: Env): string[] | undefined {
  const raw = env.DNS_RESOLVERS;
  if (raw === undefined || raw.trim() === '') return undefined;
  const list = raw
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  for (const server of list) {
    const m = /^\[([^\]]+)\](?::(\d{1,5}))?$/.exec(server) ?? /^([^:]+)(?::(\d{1,5}))?$/.exec(server) ?? [server, server, undefined];
    const [, ip, port] = m;
    if (!ipaddr.isValid(ip) || (port !== undefined && (Number(port) < 1 || Number(port) > 65535))) {
      fail('DNS_RESOLVERS', 'comma-separated DNS server addresses such as 1.1.1.1, 10.0.0.2:5353 or [2606:4700::1111]:53', raw);
    }
  }
  return list;
}

/** CHROMIUM_PATH and BROWSER_*: the browser checks' settings, the platform's and a probe's alike. */
export function browserEnv(env: Env): BrowserSettings {
  return {
    executablePath: env.CHROMIUM_PATH || '/usr/bin/chromium',
    memoryMb: int(env, 'BROWSER_MEMORY_MB', 512, 128, 8192),
    maxTimeoutSeconds: int(env, 'BROWSER_MAX_TIMEOUT_SECONDS', 60, 5, 120),
    concurrency: int(env, 'BROWSER_CONCURRENCY', 1, 1, 16),
    minIntervalSeconds: int(env, 'BROWSER_MIN_INTERVAL_SECONDS', 300, 1, 86400),
    screenshotDays: int(env, 'BROWSER_SCREENSHOT_DAYS', 7, 1, 365),
  };
}
