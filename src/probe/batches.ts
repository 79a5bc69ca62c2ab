// A delivery's results cut into calls the platform takes: at most RESULTS_BATCH_MAX results and
// at most BATCH_MAX_CHARS of JSON each (the results call's body limit is 4 MiB; browser results
// carry screenshots of up to 2 MiB). A result alone is always one call: it fits by its own bounds.
import type { WireResult } from './wire.ts';

/** Under the results call's 4 MiB body limit, with room for `stats` and the JSON around the list */
export const BATCH_MAX_CHARS = 3.5 * 1024 * 1024;

export function batchesOf(results: WireResult[], maxCount: number, maxChars = BATCH_MAX_CHARS): WireResult[][] {
  const out: WireResult[][] = [];
  let part: WireResult[] = [];
  let chars = 0;
  for (const r of results) {
    const size = JSON.stringify(r).length + 1;
    if (part.length > 0 && (part.length >= maxCount || chars + size > maxChars)) {
      out.push(part);
      part = [];
      chars = 0;
    }
    part.push(r);
    chars += size;
  }
  if (part.length > 0) out.push(part);
  return out;
}
