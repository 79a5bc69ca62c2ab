// Every date the console shows goes through the formatters of src/lib (dates.ts, the status
// page's 'YYYY-MM-DD HH:MM UTC'; zoned-time.ts for the on-call screens' named zones, in a fixed
// form): no screen formats a moment in the browser's locale.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ISLANDS = path.resolve(import.meta.dirname, '../../src/islands');
/** A moment written by the browser's locale: Date's own locale methods and Intl's date formatter. */
const LOCALE_DATE = /toLocaleDateString|toLocaleTimeString|Intl\.DateTimeFormat|new Date\([^)]*\)\.toLocaleString|toUTCString/;

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return sources(p);
    return /\.(ts|tsx)$/.test(e.name) && !/\.test\.ts$/.test(e.name) ? [p] : [];
  });
}

describe('console dates', () => {
  it("no island formats a date in the browser's locale", () => {
    // The status page's own script (islands/status) writes dates in the PAGE's language, which the
    // page gives it: an Intl.DateTimeFormat there must name that locale (a variable), never none.
    const explicitOnly = (text: string) =>
      !/toLocaleDateString|toLocaleTimeString|toLocaleString|toUTCString/.test(text) &&
      [...text.matchAll(/Intl\.DateTimeFormat\(([^,)]*)/g)].every(
        (m) => /^[A-Za-z_$][\w$]*$/.test(m[1].trim()) && m[1].trim() !== 'undefined',
      );
    const offenders = sources(ISLANDS).filter((file) => {
      const text = readFileSync(file, 'utf8');
      if (!LOCALE_DATE.test(text)) return false;
      return !(path.relative(ISLANDS, file).startsWith(`status${path.sep}`) && explicitOnly(text));
    });
    expect(offenders.map((f) => path.relative(ISLANDS, f))).toEqual([]);
  });
});
