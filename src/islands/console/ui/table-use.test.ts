// Every console table is ui/Table.tsx (one look, rows stacked on phones, headers scoped): a screen
// that writes its own <table> fails here. The monitors list is the one exception: it renders only
// a window of up to 10,000 rows, with spacer rows and aria-rowindex, which Table does not do.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const FEATURES = path.join(import.meta.dirname, '..', 'features');
const OWN_TABLE = new Set(['monitors/MonitorsPage.tsx']);

function handWrittenTables(root: string): string[] {
  return readdirSync(root, { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.tsx') && !OWN_TABLE.has(f.split(path.sep).join('/')))
    .filter((f) => /<table[\s>]/.test(readFileSync(path.join(root, f), 'utf8')))
    .map((f) => f.split(path.sep).join('/'))
    .sort();
}

describe('console tables', () => {
  it('no feature screen writes its own <table> (ui/Table.tsx draws them)', () => {
    expect(handWrittenTables(FEATURES)).toEqual([]);
  });
});
