// Which company a custom domain serves, from memory: the whole (small) table of domains with
// their companies' subdomains is read at once and kept for ROUTES_TTL_MS, and dropped at once
// when this process changes a domain (add, verify, fail, remove). Other processes (PostgreSQL,
// several servers) see a change within the TTL. A failed reload keeps the last good table, so
// a database outage does not take custom domains down with it.
import { customDomainsRepo, type DomainRoute } from '../../db/repositories/custom-domains-repo.ts';
import type { Services } from '../context.ts';

export const ROUTES_TTL_MS = 30_000;

export class CustomDomainRoutes {
  private table: Map<string, DomainRoute> | null = null;
  private loadedAt = 0;
  private loading: Promise<Map<string, DomainRoute>> | null = null;
  /** Bumped by invalidate: a reload begun before a change must not install the old table. */
  private generation = 0;
  private readonly services: Services;

  constructor(services: Services) {
    this.services = services;
  }

  /** The route of a host name (lower case, no port), or undefined when it is no custom domain. */
  async lookup(host: string): Promise<DomainRoute | undefined> {
    const fresh = this.table && performance.now() - this.loadedAt < ROUTES_TTL_MS;
    const table = fresh ? this.table! : await this.reload();
    return table.get(host);
  }

  invalidate(): void {
    this.generation += 1;
    this.loadedAt = Number.NEGATIVE_INFINITY;
    this.loading = null;
  }

  private reload(): Promise<Map<string, DomainRoute>> {
    const generation = this.generation;
    const stale = this.table;
    this.loading ??= customDomainsRepo(this.services.db)
      .routes()
      .then((rows) => {
        const table = new Map(rows.map((r) => [r.domain, r]));
        if (generation === this.generation) {
          this.table = table;
          this.loadedAt = performance.now();
        }
        return table;
      })
      .catch((e: unknown) => {
        if (stale) return stale;
        throw e;
      })
      .finally(() => {
        if (generation === this.generation) this.loading = null;
      });
    return this.loading;
  }
}

declare module '../context.ts' {
  interface ProcessState {
    /** Which company each custom domain serves, one table per services object (this file) */
    customDomainRoutes: CustomDomainRoutes;
  }
}

/** The subdomain whose documents a host serves: set only for a verified domain of an active company. */
export async function servedSubdomain(services: Services, host: string): Promise<string | null> {
  const route = await services.state.customDomainRoutes.lookup(host);
  return route?.state === 'verified' && route.subdomain ? route.subdomain : null;
}
