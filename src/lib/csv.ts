// CSV as RFC 4180 describes it (CRLF line ends, fields with a comma, quote or line break quoted,
// quotes doubled), safe to open in a spreadsheet: a text cell starting with = + - @ (or a tab or
// carriage return) would run as a formula, so it is prefixed with an apostrophe. Pure.

export type CsvCell = string | number | boolean | null;

const FORMULA_START = /^[=+\-@\t\r]/;

export function csvField(v: CsvCell): string {
  if (v === null) return '';
  if (typeof v !== 'string') return String(v);
  const text = FORMULA_START.test(v) ? `'${v}` : v;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function csvDocument(rows: CsvCell[][]): string {
  return rows.map((r) => r.map(csvField).join(',')).join('\r\n') + '\r\n';
}
