// Rules for text people type into forms (names, titles, messages), pure and shared by the server
// and the console. XML 1.0 cannot carry C0 control characters other than tab, line feed and
// carriage return, nor lone surrogates or U+FFFE/U+FFFF: one such character in a monitor name or
// an incident message made every RSS/Atom feed of the status page unreadable and a badge empty.

const UNSAFE =
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

export function hasControlCharacters(text: string): boolean {
  return UNSAFE.test(text);
}

/** The form message for a field holding one, e.g. 'Name must not contain control characters.' */
export function controlCharactersText(label: string): string {
  return `${label} must not contain control characters.`;
}

/** The message for `value` in the field labelled `label`, or null when the text is fine. */
export function plainTextProblem(label: string, value: string | null | undefined): string | null {
  return value != null && hasControlCharacters(value) ? controlCharactersText(label) : null;
}
