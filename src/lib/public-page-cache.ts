// Caching headers of the public pages on a company host (status, history, incident, uptime):
// browsers revalidate each time (a cheap 304), CDNs keep a page briefly and serve it stale while
// the origin fails. Pure; shared by the Astro pages and the server's fast path.
export const PUBLIC_PAGE_CACHE_CONTROL = 'public, max-age=0, s-maxage=15, stale-while-revalidate=60, stale-if-error=86400';

/** true when an If-None-Match header names this strong ETag (weak comparison, as for GET). */
export function etagMatches(ifNoneMatch: string | null | undefined, etag: string): boolean {
  return !!ifNoneMatch && ifNoneMatch.split(',').some((t) => t.trim().replace(/^W\//, '') === etag || t.trim() === '*');
}
