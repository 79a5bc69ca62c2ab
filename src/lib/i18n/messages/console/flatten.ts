// The console's catalogue is one catalogue kept in one file per screen area (namespace) and
// language, so engineers translating different screens never edit the same file: en/<ns>.json,
// de/<ns>.json. Here the namespaces become one flat catalogue whose keys are '<ns>.<key>'.
import type { Messages } from '../../translator.ts';

export type Namespaces = Readonly<Record<string, Messages>>;

/** '<ns>.<key>' for every key of every namespace. */
export type FlatKey<N extends Namespaces> = { [P in keyof N & string]: `${P}.${keyof N[P] & string}` }[keyof N & string];

export function flatten(namespaces: Namespaces): Messages {
  const out: Record<string, string> = {};
  for (const [ns, messages] of Object.entries(namespaces)) {
    for (const [key, text] of Object.entries(messages)) out[`${ns}.${key}`] = text;
  }
  return out;
}
