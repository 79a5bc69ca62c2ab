// Dashboard colours of section 9 of the spec. Pure; imports nothing.
export type Tone = 'green' | 'amber' | 'red' | 'grey';

/** Error rate in percent: above 5 red, above 1 amber, else green. */
export function errorRateTone(percent: number | null | undefined): Tone {
  if (percent == null || !Number.isFinite(percent)) return 'grey';
  return percent > 5 ? 'red' : percent > 1 ? 'amber' : 'green';
}

/** P95 latency in ms: above 1000 red, above 500 amber, else green. */
export function p95Tone(ms: number | null | undefined): Tone {
  if (ms == null || !Number.isFinite(ms)) return 'grey';
  return ms > 1000 ? 'red' : ms > 500 ? 'amber' : 'green';
}

/** Uptime in percent: above 99.9 green, above 99 amber, else red. */
export function uptimeTone(percent: number | null | undefined): Tone {
  if (percent == null || !Number.isFinite(percent)) return 'grey';
  return percent > 99.9 ? 'green' : percent > 99 ? 'amber' : 'red';
}
