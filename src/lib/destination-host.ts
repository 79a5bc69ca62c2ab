// The destination host of a monitor as the per-host check budget counts it (issue 25, item 17):
// lower case, no trailing dot, no IPv6 brackets, odd IPv4 spellings (127.1, 0x7f000001) as the
// dotted quad a connection would use, so one server is not counted under several spellings.
export function normalizeDestination(host: string): string {
  let h = host.trim().toLowerCase().replace(/\.$/, '');
  if (h.includes(':') && !h.startsWith('[')) h = `[${h}]`;
  try {
    h = new URL(`http://${h}/`).hostname;
  } catch {
    // Left as written: validation refused anything a URL cannot hold before it got here.
  }
  return h.replace(/^\[|\]$/g, '');
}

/** Checks a minute one monitor adds to its destination. */
export function checksPerMinute(intervalSeconds: number): number {
  return 60 / Math.max(1, intervalSeconds);
}

/** A rate as the problem texts show it: whole numbers as such, else one decimal. */
export function formatRate(perMinute: number): string {
  const r = Math.round(perMinute * 10) / 10;
  return Number.isInteger(r) ? String(r) : r.toFixed(1);
}
