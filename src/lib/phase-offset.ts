// Where in its interval a monitor's checks fall: a stable offset from its id, so a location's
// checks spread over the interval instead of starting in lockstep (the engine and the probe
// process alike). Pure.

export function phaseOffsetMs(id: string, intervalMs: number): number {
  let h = 2166136261;
  for (let i = 0; i < id.length; i++) h = Math.imul(h ^ id.charCodeAt(i), 16777619) >>> 0;
  return h % Math.max(1, intervalMs);
}
