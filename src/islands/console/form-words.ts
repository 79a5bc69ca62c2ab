// What the console shows of the shared form declarations (src/lib/kind-forms/, src/lib/channel-forms/)
// in the reader's language. The declarations keep their English: the server validates with them and
// names fields by it in its (English) messages. The console looks each shown text up by the field's
// stable id instead: kindForms.<field>.label|hint|placeholder|option.<value> and
// channelForms.<type>.label, channelForms.<type>.<key>.label|hint|placeholder
// (tests/unit/i18n/form-words.test.ts fails when a declared field lacks one in any language).
import type { ChannelField } from '../../lib/channel-forms/index.ts';
import type { KindField } from '../../lib/kind-forms/index.ts';
import { type ConsoleKey, t } from './i18n.ts';

const say = (key: string) => t(key as ConsoleKey);

export interface FieldWords {
  label: string;
  hint?: string;
  placeholder?: string;
}

/** A kind's declared field as the form shows it. */
export function kindFieldWords(name: string, spec: KindField): FieldWords & { option(value: string): string } {
  return {
    label: say(`kindForms.${name}.label`),
    hint: spec.hint ? say(`kindForms.${name}.hint`) : undefined,
    placeholder: spec.placeholder ? say(`kindForms.${name}.placeholder`) : undefined,
    option: (value) => say(`kindForms.${name}.option.${value}`),
  };
}

/** A channel type as people read it ('E-Mail', 'Microsoft Teams'). */
export const channelTypeLabel = (type: string) => say(`channelForms.${type}.label`);

/** A channel type's config field as the form shows it. */
export function channelFieldWords(type: string, field: ChannelField): FieldWords {
  return {
    label: say(`channelForms.${type}.${field.key}.label`),
    hint: field.hint ? say(`channelForms.${type}.${field.key}.hint`) : undefined,
    placeholder: field.placeholder ? say(`channelForms.${type}.${field.key}.placeholder`) : undefined,
  };
}
