// Display helpers shared by the screens. Moments are written as the status page writes them
// ('2026-11-29 06:04 UTC', lib/dates.ts), never in the browser's locale.
import { formatUtcDay, formatUtcMinute } from '../../../lib/dates.ts';

export function fmtTime(iso: string | number | null | undefined, fallback: string): string {
  return formatUtcMinute(iso, fallback);
}

export function fmtDate(iso: string | null | undefined): string {
  return formatUtcDay(iso);
}

export function fmtNumber(n: number | null | undefined, digits = 0): string {
  if (n == null || !Number.isFinite(n)) return '—';
  return n.toLocaleString(undefined, { minimumFractionDigits: digits, maximumFractionDigits: digits });
}

/** A rate with 2 decimals; some traffic too small to show reads '<0.01', never a made-up 0.00. */
export function fmtRate(perSecond: number | null | undefined): string {
  if (perSecond != null && perSecond > 0 && perSecond < 0.005) return '<0.01';
  return fmtNumber(perSecond, 2);
}
