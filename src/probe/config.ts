// The probe's settings, parsed once at start from its environment. The check settings
// (ALLOW_PRIVATE_TARGETS, DNS_RESOLVERS) are read with the platform's own parsers, so a value means
// the same on a probe as on the platform; for a public location the platform's
// ALLOW_PRIVATE_TARGETS applies instead (it comes with the assignments).
import { existsSync } from 'node:fs';
import { hostname } from 'node:os';
import path from 'node:path';
import type { BrowserSettings } from '../server/engine/checkers/browser/settings.ts';
import { bool, browserEnv, ConfigError, dnsResolvers, type Env, fail, int, privateTargets } from '../server/env-values.ts';

export interface ProbeConfig {
  /** The platform's base URL, e.g. https://status.example.com */
  url: string;
  token: string;
  instance: string;
  bufferDir: string;
  bufferMaxBytes: number;
  allowPrivateTargets: boolean | string[];
  dnsResolvers: string[] | undefined;
  /**
   * Browser checks on this probe (CHROMIUM_PATH, BROWSER_*), or null: PROBE_BROWSER_CHECKS=false,
   * or unset on a machine without Chromium. The probe then says no `browser` at hello and leaves
   * browser monitors to the location's probes that have it.
   */
  browser: BrowserSettings | null;
}

/** PROBE_BROWSER_CHECKS: unset runs them where Chromium is; true insists (a missing Chromium is a start error); false never. */
function browserOf(env: Env): BrowserSettings | null {
  const settings = browserEnv(env);
  const asked = env.PROBE_BROWSER_CHECKS ?? '';
  const installed = existsSync(settings.executablePath);
  if (asked === '') return installed ? settings : null;
  if (!bool(env, 'PROBE_BROWSER_CHECKS', false)) return null;
  if (!installed)
    throw new ConfigError(
      `PROBE_BROWSER_CHECKS=true but there is no Chromium at ${settings.executablePath}: install it (apt-get install chromium) or set CHROMIUM_PATH`,
    );
  return settings;
}

export function parseProbeConfig(env: Env = process.env): ProbeConfig {
  const url = env.PROBE_URL ?? '';
  if (!/^https?:\/\/[^/\s]+\/?$/.test(url)) fail('PROBE_URL', "the platform's base URL, such as https://status.example.com", url);
  const token = env.PROBE_TOKEN ?? '';
  if (!/^swp_[A-Za-z0-9_-]{20,}$/.test(token))
    throw new ConfigError("PROBE_TOKEN is missing or not a probe token (swp_…): create one on the location's page");
  const instance = (env.PROBE_INSTANCE || hostname()).trim();
  if (!instance || instance.length > 100 || /[\u0000-\u001f\u007f]/.test(instance))
    fail('PROBE_INSTANCE', 'a name of 1 to 100 printable characters (default: the host name)', instance);
  return {
    url: url.replace(/\/$/, ''),
    token,
    instance,
    bufferDir: path.resolve(env.PROBE_BUFFER_DIR || './probe-buffer'),
    bufferMaxBytes: int(env, 'PROBE_BUFFER_MAX_MB', 64, 1, 1_000_000) * 1024 * 1024,
    allowPrivateTargets: privateTargets(env),
    dnsResolvers: dnsResolvers(env),
    browser: browserOf(env),
  };
}
