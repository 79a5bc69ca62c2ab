// The console's words for the product's codes (audit events, feature flags, roles) in the reader's
// language: the `labels` namespace of the console catalogue, keyed by the code. The English tables
// of src/lib/labels.ts stay the source (the server's messages use them); a code the catalogue does
// not know yet reads as those tables (or humanized) say. tests/unit/i18n/console-labels.test.ts
// keeps every code of the tables in both languages.
import { labelOf } from '../../lib/labels.ts';
import { type ConsoleKey, t } from './i18n.ts';

export type LabelKind = 'flag' | 'auditEvent' | 'role';

export function consoleLabel(kind: LabelKind, table: Record<string, string>, code: string): string {
  const key = `labels.${kind}.${code}`;
  const text = t(key as ConsoleKey);
  return text === key ? labelOf(table, code) : text;
}
