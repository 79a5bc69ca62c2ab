// Snapshot cache of the public status pages: each company's page data is built once per change
// and shared by the page, the API, the Statuspage JSON, feeds and badges. A request revalidates
// with one cheap fingerprint query at most every RECHECK_MS; the hour turning also counts as a
// change. While the database is unavailable the last snapshot keeps being served.
import { createHash } from 'node:crypto';
import type { Services } from '../context.ts';
import { statusPageRepo, type StatusCompanyRow } from '../../db/repositories/status-page-repo.ts';
import { hourStart } from '../../../lib/timeline.ts';
import { statusSnapshotsTotal } from '../../metrics/platform.ts';
import type { StatusPageView } from '../../../lib/status.ts';
import type { SpliceBase } from '../../../lib/status-page-splice.ts';
import { buildStatusView, type KeptParts } from './view.ts';

export const RECHECK_MS = 1000;
/** How long a visitor waits for a rebuild while the database is failing. */
export const FAILING_WAIT_MS = 250;
/** Companies kept in memory (least recently rebuilt dropped first). */
export const MAX_ENTRIES = 5000;

export type Lookup = { kind: 'ok'; view: StatusPageView; stale: boolean } | { kind: 'not_found' };

/** Rendered bytes of a snapshot (page HTML), kept beside it and dropped with it. */
export interface RenderedPage {
  etag: string;
  html: Buffer;
  /** made on the first gzip-only request (then kept): browsers take br, made with the render */
  gzip: Buffer | null;
  br: Buffer;
  /** the page's Content-Security-Policy (script/style hashes of this HTML) */
  csp: string;
}

interface Entry {
  key: string;
  /** next maintenance start or end after the build: the page changes then too */
  validUntil: number;
  checkedAt: number;
  /** set while rebuilding fails (database down): visitors wait at most FAILING_WAIT_MS for it */
  failing?: boolean;
  found: Lookup;
  /**
   * The page's bytes per variant (language, time zone and what the URL chose, page-locale.ts;
   * '' the plain English UTC page): one snapshot's data, rendered once per language, never mixed.
   */
  rendered?: Map<string, RenderedPage>;
  /** the history, incident and uptime pages of this snapshot: their data, and their bytes per variant */
  extras?: Map<string, { data: Promise<unknown>; rendered?: Map<string, RenderedPage> }>;
}

/** Variants kept per page and snapshot (12 languages, a few zones chosen in URLs); the oldest goes first. */
export const MAX_VARIANTS = 48;

function keepVariant(map: Map<string, RenderedPage>, variant: string, page: RenderedPage): void {
  map.delete(variant);
  if (map.size >= MAX_VARIANTS) map.delete(map.keys().next().value!);
  map.set(variant, page);
}

/** Pages beside the status page kept per snapshot (months of history, incidents, ranges). */
export const MAX_EXTRAS = 64;

export class StatusPageCache {
  readonly services: Services;
  private readonly entries = new Map<string, Entry>();
  private readonly inflight = new Map<string, Promise<Entry>>();
  /** what rebuilds reuse per company id: settled rollups, incidents, windows (view.ts) */
  private readonly settled = new Map<string, KeptParts>();
  /** each page's last full render, cut for splicing (lib/status-page-splice.ts), by subdomain */
  private readonly bases = new Map<string, SpliceBase>();
  constructor(services: Services) {
    this.services = services;
  }

  /** Forget a company's snapshot (the engine may call this after writing its data). */
  invalidate(subdomain?: string): void {
    if (subdomain) this.entries.delete(subdomain.toLowerCase());
    else this.entries.clear();
  }

  peek(subdomain: string): Entry | undefined {
    return this.entries.get(subdomain.toLowerCase());
  }

  /** The snapshot if it was revalidated within RECHECK_MS, without a promise; else undefined (lookup then revalidates). */
  fresh(subdomain: string): Lookup | undefined {
    const cached = this.entries.get(subdomain.toLowerCase());
    const now = this.services.now();
    return cached && now - cached.checkedAt < RECHECK_MS && now >= cached.checkedAt ? cached.found : undefined;
  }

  async lookup(subdomain: string): Promise<Lookup> {
    const fresh = this.fresh(subdomain);
    if (fresh) return fresh;
    const sub = subdomain.toLowerCase();
    const cached = this.entries.get(sub);
    let pending = this.inflight.get(sub);
    if (!pending) {
      pending = this.refresh(sub, cached).finally(() => this.inflight.delete(sub));
      this.inflight.set(sub, pending);
    }
    // An unreachable database can hold each attempt for the connect time-out: while attempts
    // fail, a visitor waits for the running one briefly (a database that is back answers at
    // once), then gets the snapshot.
    if (cached?.failing && cached.found.kind === 'ok') {
      const stale: Lookup = { ...cached.found, stale: true };
      return settleWithin(
        pending.then(
          (e) => e.found,
          () => stale,
        ),
        FAILING_WAIT_MS,
        stale,
      );
    }
    try {
      return (await pending).found;
    } catch (e) {
      // Database unavailable: keep serving the last snapshot.
      if (cached?.found.kind === 'ok') {
        cached.failing = true;
        return { ...cached.found, stale: true };
      }
      throw e;
    }
  }

  private async refresh(sub: string, cached: Entry | undefined): Promise<Entry> {
    const now = this.services.now();
    const company = await statusPageRepo(this.services.db).companyBySubdomain(sub);
    const key = company ? `${company.id}|${company.fingerprint}|${hourStart(now)}` : 'none';
    if (cached && cached.key === key && now < cached.validUntil) {
      cached.checkedAt = now;
      cached.failing = false;
      return cached;
    }
    const entry: Entry = { key, validUntil: Infinity, checkedAt: now, found: { kind: 'not_found' } };
    if (company && isShown(company)) {
      const etag = `"sp-${createHash('sha256').update(`${key}|${now}`).digest('base64url').slice(0, 22)}"`;
      if (this.settled.size >= MAX_ENTRIES && !this.settled.has(company.id)) this.settled.clear();
      const view = await buildStatusView(this.services, company, etag, this.settled);
      entry.found = { kind: 'ok', view, stale: false };
      statusSnapshotsTotal.inc();
      for (const w of view.maintenance) for (const t of [w.startsAt, w.endsAt]) if (t > now && t < entry.validUntil) entry.validUntil = t;
    }
    // Bounded: requests for made-up subdomains must not grow memory without limit.
    setNewest(this.entries, sub, entry);
    return entry;
  }

  /** The bytes of a variant of the page, when rendered for this ETag (the variant's own). */
  rendered(subdomain: string, etag: string, variant = ''): RenderedPage | undefined {
    const r = this.entries.get(subdomain.toLowerCase())?.rendered?.get(variant);
    return r?.etag === etag ? r : undefined;
  }

  /**
   * Drops the rendered bytes but keeps the snapshot (the benchmark times rendering alone); with
   * `base`, also the last full renders (of every variant), so the next render is a full one.
   */
  forgetRendered(subdomain: string, base = false): void {
    const e = this.entries.get(subdomain.toLowerCase());
    if (e) e.rendered = undefined;
    if (base) {
      const sub = subdomain.toLowerCase();
      for (const k of [...this.bases.keys()]) if (k === sub || k.startsWith(`${sub} `)) this.bases.delete(k);
    }
  }

  /**
   * The data of a page beside the status page (history, an incident, uptime), built once per
   * snapshot: a change to the page's data makes a new snapshot and drops them all.
   */
  extra<T>(subdomain: string, etag: string, key: string, build: () => Promise<T>): Promise<T> {
    const e = this.entries.get(subdomain.toLowerCase());
    if (e?.found.kind !== 'ok' || e.found.view.etag !== etag) return build();
    e.extras ??= new Map();
    let x = e.extras.get(key);
    if (!x) {
      if (e.extras.size >= MAX_EXTRAS) e.extras.delete(e.extras.keys().next().value!);
      x = { data: build() };
      x.data.catch(() => e.extras?.delete(key));
      e.extras.set(key, x);
    }
    return x.data as Promise<T>;
  }

  /** The last full render of a company's page in a variant, cut for splicing, if any. */
  spliceBase(subdomain: string, variant = ''): SpliceBase | undefined {
    return this.bases.get(baseKey(subdomain, variant));
  }

  storeSpliceBase(subdomain: string, base: SpliceBase, variant = ''): void {
    setNewest(this.bases, baseKey(subdomain, variant), base);
  }

  renderedExtra(subdomain: string, key: string, etag: string, variant = ''): RenderedPage | undefined {
    const r = this.entries.get(subdomain.toLowerCase())?.extras?.get(key)?.rendered?.get(variant);
    return r?.etag === etag ? r : undefined;
  }

  storeRenderedExtra(subdomain: string, key: string, page: RenderedPage, variant = ''): void {
    const x = this.entries.get(subdomain.toLowerCase())?.extras?.get(key);
    if (x) keepVariant((x.rendered ??= new Map()), variant, page);
  }

  /** Keeps a variant's bytes beside the snapshot they were made of (`snapshotEtag`, the view's). */
  storeRendered(subdomain: string, page: RenderedPage, variant = '', snapshotEtag = page.etag): void {
    const e = this.entries.get(subdomain.toLowerCase());
    if (e?.found.kind === 'ok' && e.found.view.etag === snapshotEtag) keepVariant((e.rendered ??= new Map()), variant, page);
  }
}

/** `p`, or `fallback` when `p` has not settled within `ms` (then `onLate` runs). */
export function settleWithin<T>(p: Promise<T>, ms: number, fallback: T, onLate?: () => void): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<T>((resolve) => {
    timer = setTimeout(() => {
      onLate?.();
      resolve(fallback);
    }, ms);
  });
  return Promise.race([p, late]).finally(() => clearTimeout(timer));
}

/** Sets `key` as the newest of at most MAX_ENTRIES, dropping the oldest when full. */
function setNewest<T>(map: Map<string, T>, key: string, value: T): void {
  map.delete(key);
  if (map.size >= MAX_ENTRIES) map.delete(map.keys().next().value!);
  map.set(key, value);
}

/** The splice bases' key: a page's variants each have their own last full render. */
const baseKey = (subdomain: string, variant: string) =>
  variant === '' ? subdomain.toLowerCase() : `${subdomain.toLowerCase()} ${variant}`;

/** Inactive or suspended companies have no public page. */
function isShown(c: StatusCompanyRow): boolean {
  return c.is_active && c.status !== 'inactive' && c.status !== 'suspended';
}

declare module '../context.ts' {
  interface ProcessState {
    /** The public status pages' snapshots, one cache per services object (this file) */
    statusPageCache: StatusPageCache;
  }
}
