// The console's words for audit events, feature flags and roles (src/islands/console/labels.ts):
// every code of the English tables in src/lib/labels.ts has its label in the console catalogue,
// the same English, and a German one; a code removed from a table leaves no key behind.
import { describe, expect, it } from 'vitest';
import { AUDIT_EVENT_LABELS, FLAG_LABELS, ROLE_LABELS } from '../../../src/lib/labels.ts';
import de from '../../../src/lib/i18n/messages/console/de/labels.json' with { type: 'json' };
import en from '../../../src/lib/i18n/messages/console/en/labels.json' with { type: 'json' };

const TABLES = { auditEvent: AUDIT_EVENT_LABELS, flag: FLAG_LABELS, role: ROLE_LABELS };
const EN = en as Record<string, string>;
const DE = de as Record<string, string>;

describe('console labels of codes', () => {
  it.each(Object.entries(TABLES))('%s: every code in English (as the table says) and in German', (kind, table) => {
    for (const [code, english] of Object.entries(table)) {
      expect(EN[`${kind}.${code}`], code).toBe(english);
      expect(DE[`${kind}.${code}`], code).toBeTruthy();
    }
  });

  it('keeps no key of a code the tables no longer have', () => {
    const known = new Set(Object.entries(TABLES).flatMap(([kind, table]) => Object.keys(table).map((code) => `${kind}.${code}`)));
    expect(Object.keys(EN).filter((k) => !known.has(k))).toEqual([]);
  });
});
