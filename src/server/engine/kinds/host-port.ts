// The host and port of the kinds that connect to a server (tcp, ssl): one set of rules and texts.
import { normalizeTargetHost } from '../../../lib/target-host.ts';
import type { ConfigReader, ValidatedConfig } from './kind.ts';

export const HOST_TEXT = 'Host must be a host name like db.example.com or an IP address';

export function validateHostPort(
  pick: ConfigReader<{ host?: string; port?: number }>,
  defaultPort: number | undefined,
): ValidatedConfig<{ host: string; port: number | undefined }> {
  const problems: Record<string, string> = {};
  const host = String(pick('host') ?? '').trim();
  const normalized = normalizeTargetHost(host);
  const port = pick('port') ?? defaultPort;
  let target: { host: string; field: 'host' } | null = null;
  if (!host) problems.host = 'Host is required';
  else if (!normalized) problems.host = HOST_TEXT;
  else target = { host: normalized, field: 'host' };
  if (!port || port < 1 || port > 65535) problems.port = 'Port must be between 1 and 65535';
  return { config: { host: normalized ?? host, port }, problems, target };
}
