// Rules for text people type into forms (names, titles, messages), pure and shared by the server
// and the console. XML 1.0 cannot carry C0 control characters other than tab, line feed and
// carriage return, nor lone surrogates or U+FFFE/U+FFFF: one such character in a monitor name or
// an incident message made every RSS/Atom feed of the status page unreadable and a badge empty.
// C1 controls (U+0080-009F) and the Unicode direction controls (marks, embeddings, overrides,
// isolates) are refused too: published as typed on the page, in feeds and alert messages, they
// reorder what readers see ("Trojan Source": a name shown reversed, a warning that reads safe).

const UNSAFE =
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F\u200E\u200F\u202A-\u202E\u2066-\u2069\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

const DIRECTION_NAMES = new Map<number, string>([
  [0x200e, 'left-to-right mark'],
  [0x200f, 'right-to-left mark'],
  [0x202a, 'left-to-right embedding'],
  [0x202b, 'right-to-left embedding'],
  [0x202c, 'pop directional formatting'],
  [0x202d, 'left-to-right override'],
  [0x202e, 'right-to-left override'],
  [0x2066, 'left-to-right isolate'],
  [0x2067, 'right-to-left isolate'],
  [0x2068, 'first strong isolate'],
  [0x2069, 'pop directional isolate'],
]);

export function hasControlCharacters(text: string): boolean {
  return UNSAFE.test(text);
}

/** What kind of refused character `unit` (one UTF-16 code unit) is, in words people can look up. */
function kindOf(unit: number): string {
  if (unit <= 0x1f || unit === 0x7f) return 'control character';
  if (unit <= 0x9f) return 'C1 control character';
  if (unit >= 0xd800 && unit <= 0xdfff) return 'unpaired surrogate';
  if (unit === 0xfffe || unit === 0xffff) return 'noncharacter';
  return `${DIRECTION_NAMES.get(unit)}, a text direction control`;
}

/** The first refused character of `text`: its code point, kind and 1-based position in characters. */
export function firstControlCharacter(text: string): { codePoint: string; kind: string; position: number } | null {
  const m = UNSAFE.exec(text);
  if (!m) return null;
  const unit = m[0].charCodeAt(0);
  return {
    codePoint: `U+${unit.toString(16).toUpperCase().padStart(4, '0')}`,
    kind: kindOf(unit),
    position: [...text.slice(0, m.index)].length + 1,
  };
}

/** The form message for a field holding one, e.g. 'Name must not contain control characters.' */
export function controlCharactersText(label: string): string {
  return `${label} must not contain control characters.`;
}

/**
 * The message for `value` in the field labelled `label`, or null when the text is fine, e.g.
 * 'Name must not contain control characters: U+202E (right-to-left override, a text direction
 * control) at character 6.'
 */
export function plainTextProblem(label: string, value: string | null | undefined): string | null {
  if (value == null) return null;
  const found = firstControlCharacter(value);
  if (!found) return null;
  return `${label} must not contain control characters: ${found.codePoint} (${found.kind}) at character ${found.position}.`;
}
