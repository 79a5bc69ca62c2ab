// Daily work spread over the day: each target gets a fixed minute of the UTC day from its id, so
// 1,000 targets do not all run at midnight. Pure.
const DAY = 86_400_000;

/** The target's offset into the UTC day, in ms (FNV-1a of the id, whole minutes). */
export function dailyOffset(id: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < id.length; i++) {
    h ^= id.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return (h % 1440) * 60_000;
}

/** The latest moment at or before `now` when the target's daily run was due. */
export function lastDailySlot(id: string, now: number): number {
  const slot = Math.floor(now / DAY) * DAY + dailyOffset(id);
  return slot <= now ? slot : slot - DAY;
}

/** Due when never run, or last run before its latest slot. */
export function dailyDue(id: string, lastRunAt: number | null, now: number): boolean {
  return lastRunAt === null || lastRunAt < lastDailySlot(id, now);
}
