// What a channel's settings are, declared once per channel (one file each in this folder): the
// server validates with it (notify/channels/<type>.ts) and the console's channel form draws it,
// so a label, a required flag or a secret cannot differ between the two.

export interface ChannelField {
  /** The config key, as the API names it */
  key: string;
  /** The form's label; the server's messages name the field by it too, unless `named` says otherwise */
  label: string;
  /** How the server's messages name the field when not by its label */
  named?: string;
  /** text: one line; url: an http(s) URL without credentials; lines: a list, one item a line; multiline: text kept whole, line breaks included */
  input: 'text' | 'url' | 'lines' | 'multiline';
  /** Never shown back after creation: a password input, and on edit an empty one keeps the stored value */
  secret?: boolean;
  optional?: boolean;
  /** The value the server takes when the field is left out */
  default?: string;
  placeholder?: string;
  hint?: string;
  /** At most this many characters (text) */
  max?: number;
  /** What a valid value looks like (text), and how the server's message says so */
  pattern?: RegExp;
  expected?: string;
}

export interface ChannelForm {
  /** The channel type as people read it, e.g. 'Microsoft Teams' */
  label: string;
  fields: readonly ChannelField[];
}

/** The one field of a chat service's incoming webhook: its URL, which is the secret. */
export const webhookUrlField = (hint: string, named?: string): ChannelField => ({
  key: 'url',
  label: 'Webhook URL',
  input: 'url',
  secret: true,
  placeholder: 'https://…',
  hint,
  ...(named ? { named } : {}),
});

/** The keys of the fields never shown back. */
export const secretKeys = (form: ChannelForm): string[] => form.fields.filter((f) => f.secret).map((f) => f.key);
