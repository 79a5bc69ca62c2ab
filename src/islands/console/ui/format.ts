// Display helpers shared by the screens.
export function fmtTime(iso: string | null | undefined, fallback: string): string {
  if (!iso) return fallback;
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? fallback : d.toLocaleString();
}

export function fmtDate(iso: string | null | undefined): string {
  if (!iso) return '—';
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? '—' : d.toLocaleDateString();
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
