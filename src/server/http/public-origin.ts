// The origin a browser sees for this host. Behind a proxy that passes `Host $host` (nginx drops
// the port there), the Host header lacks the port the browser used; PUBLIC_PORT restores it for
// the same-origin check and for links to the other hosts of the platform.
import type { Config } from '../config.ts';
import { hostName, hostPort, portSuffix } from '../../lib/hosts.ts';

type PublicSide = Pick<Config, 'publicPort' | 'publicScheme'>;

/** ':port' of links to this platform's hosts, '' for the scheme's default port. */
export function publicPortOf(hostHeader: string | undefined, config: PublicSide): string {
  if (config.publicPort === undefined) return hostPort(hostHeader ?? '');
  return portSuffix(config.publicScheme, config.publicPort);
}

/** Whether an Origin header names this host as the browser reached it. */
export function isOwnOrigin(origin: string, hostHeader: string, config: PublicSide): boolean {
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return false;
  }
  if (url.host.toLowerCase() === hostHeader.toLowerCase()) return true;
  if (config.publicPort === undefined) return false;
  return url.origin === `${config.publicScheme}://${hostName(hostHeader)}${publicPortOf(hostHeader, config)}`;
}
