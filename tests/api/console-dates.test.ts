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
    const offenders = sources(ISLANDS).filter((file) => LOCALE_DATE.test(readFileSync(file, 'utf8')));
    expect(offenders.map((f) => path.relative(ISLANDS, f))).toEqual([]);
  });
});
