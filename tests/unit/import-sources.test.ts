// The console's Import screen lists the tools itself (islands cannot import server code): every
// source the server reads is offered there, and nothing else.
import { describe, expect, it } from 'vitest';
import { IMPORT_SOURCES as CONSOLE_SOURCES } from '../../src/islands/console/features/imports/store.ts';
import { IMPORT_SOURCES } from '../../src/server/cli/importers/sources.ts';

describe('import sources', () => {
  it('the Import screen offers every source the server reads, and only those', () => {
    expect([...CONSOLE_SOURCES].sort()).toEqual([...IMPORT_SOURCES].sort());
  });
});
