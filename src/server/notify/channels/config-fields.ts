// Field checks shared by the channel configs: each refusal names the field and says, in the
// form's words, what it accepts. The fields themselves are declared once, in src/lib/channel-forms/. The SSRF guard is not here: the outbox applies it to
// `tenantUrls` before every send, when DNS answers count.
import type { ChannelForm } from '../../../lib/channel-forms/field.ts';
import { ChannelConfigError } from './channel.ts';

export type ConfigFields = Record<string, unknown>;

export function configObject(raw: unknown): ConfigFields {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw))
    throw new ChannelConfigError('config', 'The settings must be an object.');
  return raw as ConfigFields;
}

interface StringRule {
  label: string;
  max: number;
  /** What a valid value looks like, and how to say so */
  pattern?: RegExp;
  expected?: string;
}

export function requiredString(fields: ConfigFields, field: string, rule: StringRule): string {
  const value = fields[field];
  if (value === undefined || value === null || (typeof value === 'string' && value.trim() === ''))
    throw new ChannelConfigError(field, `${rule.label} is required.`);
  if (typeof value !== 'string') throw new ChannelConfigError(field, `${rule.label} must be text.`);
  const trimmed = value.trim();
  if (trimmed.length > rule.max) throw new ChannelConfigError(field, `${rule.label} must be at most ${rule.max} characters.`);
  if (rule.pattern && !rule.pattern.test(trimmed)) throw new ChannelConfigError(field, `${rule.label} must be ${rule.expected}.`);
  return trimmed;
}

export function optionalString(fields: ConfigFields, field: string, rule: StringRule): string | null {
  const value = fields[field];
  if (value === undefined || value === null || value === '') return null;
  return requiredString(fields, field, rule);
}

/** An http(s) URL with a host and no user name or password in it. */
export function httpUrl(fields: ConfigFields, field: string, label: string): string {
  const raw = requiredString(fields, field, { label, max: 2048 });
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ChannelConfigError(field, `${label} must be a full URL starting with https://.`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    throw new ChannelConfigError(field, `${label} must start with https:// or http://.`);
  if (url.username || url.password) throw new ChannelConfigError(field, `${label} must not contain a user name or password.`);
  return url.href;
}

/** Refuses fields a channel does not know, so a typo is not silently ignored. */
export function onlyFields(fields: ConfigFields, known: readonly string[]): void {
  for (const key of Object.keys(fields)) {
    if (!known.includes(key)) throw new ChannelConfigError(key, `Unknown setting "${key}"; expected ${known.join(', ')}.`);
  }
}

/**
 * A channel's settings checked against its declaration (src/lib/channel-forms/<type>.ts, which the
 * console's form draws too): only its fields, each in the order declared; a field left out takes
 * its default, an optional one without a default is null.
 */
export function parseFields<C>(raw: unknown, form: ChannelForm): C {
  const fields = configObject(raw);
  onlyFields(
    fields,
    form.fields.map((f) => f.key),
  );
  const out: Record<string, string | null> = {};
  for (const f of form.fields) {
    const label = f.named ?? f.label;
    const value = fields[f.key] ?? f.default;
    if (f.input === 'url') out[f.key] = f.optional && value === undefined ? null : httpUrl({ [f.key]: value }, f.key, label);
    else {
      const rule = { label, max: f.max ?? 2048, pattern: f.pattern, expected: f.expected };
      const given = { [f.key]: value };
      out[f.key] = f.optional ? optionalString(given, f.key, rule) : requiredString(given, f.key, rule);
    }
  }
  return out as C;
}
