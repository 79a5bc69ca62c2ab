// The one way the console and the status page write a moment: '2026-11-29 06:04 UTC' (and a day
// as '2026-11-29'), whatever the browser's locale or time zone, so every screen, the status page
// and a colleague's screenshot read the same. Pure; imports nothing.

type Moment = string | number | Date | null | undefined;

function msOf(value: Moment): number | null {
  if (value == null || value === '') return null;
  const ms = value instanceof Date ? value.getTime() : typeof value === 'number' ? value : Date.parse(value);
  return Number.isFinite(ms) ? ms : null;
}

/** '2026-11-29 06:04 UTC', or `fallback` for nothing or something that is no time. */
export function formatUtcMinute(value: Moment, fallback = '—'): string {
  const ms = msOf(value);
  return ms === null ? fallback : `${new Date(ms).toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

/** '2026-11-29' (the UTC day), or `fallback`. */
export function formatUtcDay(value: Moment, fallback = '—'): string {
  const ms = msOf(value);
  return ms === null ? fallback : new Date(ms).toISOString().slice(0, 10);
}

/**
 * The console's date-and-time fields (datetime-local) are read and filled in UTC like every date
 * it shows: 'YYYY-MM-DDTHH:MM' of the UTC moment.
 */
export function utcInputValue(ms: number): string {
  return new Date(ms).toISOString().slice(0, 16);
}

/** The moment a datetime-local value names, read as UTC; NaN for an empty or unfinished value. */
export function parseUtcInput(value: string): number {
  return /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?$/.test(value) ? Date.parse(`${value}Z`) : Number.NaN;
}
