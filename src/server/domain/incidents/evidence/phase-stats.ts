// Check phases from stored timings, and the percentiles a baseline is made of. Pure.
// Stored timings (engine/checkers/http.ts) are {dns, connect, tls, ttfb, total} in ms, where
// ttfb and total count from the start: the phases are their differences.
import type { CheckPhase } from '../../../../lib/incident-evidence.ts';

export const PHASES: readonly CheckPhase[] = ['dns', 'connect', 'tls', 'first_byte', 'body'];

export const PHASE_LABEL: Record<CheckPhase, string> = {
  dns: 'DNS lookup',
  connect: 'TCP connect',
  tls: 'TLS handshake',
  first_byte: 'Time to first byte',
  body: 'Body download',
};

export type PhaseTimes = Partial<Record<CheckPhase, number>>;

export function phasesOf(timingsJson: string | null): PhaseTimes | null {
  if (!timingsJson) return null;
  let t: Record<string, unknown>;
  try {
    t = JSON.parse(timingsJson) as Record<string, unknown>;
  } catch {
    return null;
  }
  const n = (k: string) => (typeof t[k] === 'number' && Number.isFinite(t[k]) ? (t[k] as number) : undefined);
  const dns = n('dns');
  const connect = n('connect');
  const tls = n('tls');
  const ttfb = n('ttfb');
  const total = n('total');
  const out: PhaseTimes = {};
  if (dns !== undefined) out.dns = dns;
  if (connect !== undefined) out.connect = connect;
  if (tls !== undefined) out.tls = tls;
  if (ttfb !== undefined) out.first_byte = Math.max(0, ttfb - (dns ?? 0) - (connect ?? 0) - (tls ?? 0));
  if (ttfb !== undefined && total !== undefined) out.body = Math.max(0, total - ttfb);
  return Object.keys(out).length ? out : null;
}

/** The q-th quantile (0..1) by nearest rank; null for no values. */
export function quantile(values: readonly number[], q: number): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))];
}

/** "840 ms", "2.4 s" */
export function msText(ms: number): string {
  return ms >= 1000 ? `${(ms / 1000).toFixed(ms >= 10_000 ? 0 : 1)} s` : `${Math.round(ms)} ms`;
}
