// The absolute links public documents carry (the status page's "Powered by" link, feed and entry
// ids, Statuspage URLs) are built from configuration, never from the request's Host header: the
// cached page would otherwise keep the first visitor's host, and feed readers would see entries
// change ids with the host they were fetched through.
import type { Config } from '../../config.ts';
import { mainOrigin, portSuffix, tenantOrigin } from '../../../lib/hosts.ts';

/**
 * ':port' of public URLs: PUBLIC_PORT when the operator says where browsers reach the server;
 * else, in production, the scheme's own port behind a proxy; elsewhere (development, tests) PORT.
 */
function publicPort(config: Pick<Config, 'nodeEnv' | 'port' | 'publicScheme' | 'publicPort'>): string {
  if (config.publicPort !== undefined) return portSuffix(config.publicScheme, config.publicPort);
  return config.nodeEnv === 'production' ? '' : portSuffix(config.publicScheme, config.port);
}

export type PublicLinkConfig = Pick<Config, 'nodeEnv' | 'port' | 'publicScheme' | 'productDomain' | 'publicPort'>;

/** Origin of the main site, e.g. https://status.example.com. */
export function publicMainOrigin(config: PublicLinkConfig): string {
  return mainOrigin(config.publicScheme, config.productDomain, publicPort(config));
}

/** Origin of a company's status page, e.g. https://acme.status.example.com. */
export function publicTenantOrigin(config: PublicLinkConfig, subdomain: string): string {
  return tenantOrigin(config.publicScheme, subdomain, config.productDomain, publicPort(config));
}
