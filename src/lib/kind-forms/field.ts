// How the console's monitor form draws a kind's own fields that have no hand-made input: declared
// once per group of kinds (one file each in this folder, registered in index.ts), so a kind added
// by one module and one line also gets its form. The server validates (engine/kinds/<kind>.ts);
// these declarations only say how to draw a field and how its text becomes the API's value.
//
// Example (a file `src/lib/kind-forms/mail.ts` registered in index.ts):
//   export const MAIL_FIELDS = {
//     mail_tls: { label: 'Encryption', input: 'select', options: ['none', 'starttls', 'implicit'], default: 'starttls' },
//     username: { label: 'User name', input: 'text' },
//     password: { label: 'Password', input: 'secret', hint: 'Stored encrypted; never shown again' },
//   } satisfies KindFieldSpecs;
// and the kind's line in the console's KIND_FORMS lists the field names in the order shown.

export type KindFieldInput =
  /** one line of text; blank sends null */
  | 'text'
  /** a number; blank sends null */
  | 'number'
  /** a password input; blank sends nothing, so an edit keeps the stored value */
  | 'secret'
  /** one of `options` */
  | 'select'
  /** true or false */
  | 'checkbox'
  /** comma-separated (or one a line), sent as a list of strings */
  | 'list'
  /** comma-separated numbers, sent as a list of numbers */
  | 'numbers'
  /** several lines of text, sent as written */
  | 'lines'
  /** "Name: value" lines, sent as an object */
  | 'pairs';

export interface KindField {
  label: string;
  input: KindFieldInput;
  /** the choices of a select, in the order shown */
  options?: readonly string[];
  hint?: string;
  placeholder?: string;
  required?: boolean;
  /** the form's starting value: the server's default for the field left out */
  default?: string | boolean;
}

export type KindFieldSpecs = Record<string, KindField>;

/** A declared field as the form holds it: text for every input but a checkbox. */
export type KindFieldValue = string | boolean;

const splitList = (s: string) =>
  s
    .split(/[,\n]/)
    .map((x) => x.trim())
    .filter(Boolean);
/** A number as typed; text that is not one goes to the server as is, which names the field. */
const num = (s: string): number | string | null => (s.trim() === '' ? null : Number.isFinite(Number(s)) ? Number(s) : s.trim());

/** "Name: value" lines as an object; a line without a colon is left for the server to refuse by name. */
export function parsePairs(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const line of text.split('\n')) {
    if (!line.trim()) continue;
    const at = line.indexOf(':');
    if (at <= 0) out[line.trim()] = '';
    else out[line.slice(0, at).trim()] = line.slice(at + 1).trim();
  }
  return out;
}

/** The form's starting value of a declared field. */
export function initialValue(spec: KindField): KindFieldValue {
  if (spec.input === 'checkbox') return spec.default === true;
  return typeof spec.default === 'string' ? spec.default : '';
}

/** A stored value (from the monitor view) as the form shows it; a secret is never shown back. */
export function toFormValue(spec: KindField, value: unknown): KindFieldValue {
  if (spec.input === 'checkbox') return typeof value === 'boolean' ? value : initialValue(spec);
  if (spec.input === 'secret' || value === null || value === undefined) return spec.input === 'secret' ? '' : initialValue(spec);
  if (Array.isArray(value)) return value.join(', ');
  if (typeof value === 'object')
    return Object.entries(value as Record<string, unknown>)
      .map(([k, v]) => `${k}: ${String(v)}`)
      .join('\n');
  return String(value);
}

/**
 * The value the API takes for what was typed; `undefined` leaves the field out of the body (a blank
 * secret: the stored one stays).
 */
export function toApiValue(spec: KindField, value: KindFieldValue): unknown {
  if (spec.input === 'checkbox') return value === true;
  const text = typeof value === 'string' ? value : '';
  if (spec.input === 'secret') return text === '' ? undefined : text;
  if (spec.input === 'lines') return text.trim() === '' ? null : text;
  if (text.trim() === '') return null;
  switch (spec.input) {
    case 'number':
      return num(text);
    case 'list':
      return splitList(text);
    case 'numbers':
      return splitList(text).map(num);
    case 'pairs':
      return parsePairs(text);
    default:
      return text.trim();
  }
}
