// How long something lasted, in words a person reads in a notification: the two largest units,
// rounded down, so a 5-second outage never reads as "1 minute" and 90 minutes as "1 hour 30 minutes".

const UNITS = [
  ['day', 86_400_000],
  ['hour', 3_600_000],
  ['minute', 60_000],
  ['second', 1000],
] as const;

const plural = (n: number, unit: string) => `${n} ${unit}${n === 1 ? '' : 's'}`;

/** '5 seconds', '4 minutes', '1 hour 30 minutes', '2 days 3 hours'; under a second: 'less than a second'. */
export function formatDuration(ms: number): string {
  if (!Number.isFinite(ms) || ms < 1000) return 'less than a second';
  const parts: string[] = [];
  let rest = Math.floor(ms);
  for (const [unit, size] of UNITS) {
    const n = Math.floor(rest / size);
    rest -= n * size;
    if (n > 0 || parts.length > 0) parts.push(n > 0 ? plural(n, unit) : '');
    if (parts.length === 2) break;
  }
  return parts.filter(Boolean).join(' ');
}
