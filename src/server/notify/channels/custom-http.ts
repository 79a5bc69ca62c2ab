// Custom HTTP channel: the admin's own request, method, URL, headers and body written as templates
// with the alert's fields (custom-template.ts). Everything is checked at save: variable names,
// braces, header names (no Host, Content-Length or other hop-by-hop header the sender owns), a
// JSON body that is JSON once filled in with awkward sample values, an empty body for GET.
// Values are JSON-escaped in a JSON body, URL-encoded in the URL and kept to one line in a
// header. Headers holding credentials go in `secret_headers`, never shown back.
import { CUSTOM_HTTP_METHODS, customHttpForm } from '../../../lib/channel-forms/custom-http.ts';
import { secretKeys } from '../../../lib/channel-forms/field.ts';
import { ChannelConfigError, type HttpChannel } from './channel.ts';
import { configObject, onlyFields } from './config-fields.ts';
import {
  ESCAPES,
  expandTemplate,
  parseTemplate,
  sampleValues,
  TemplateSyntaxError,
  templateValues,
  type TemplatePart,
} from './custom-template.ts';
import { USER_AGENT } from './webhook.ts';

export type CustomHttpMethod = (typeof CUSTOM_HTTP_METHODS)[number];

export interface CustomHttpConfig {
  method: CustomHttpMethod;
  url: string;
  /** "Name: value" lines, as written (normalised line ends) */
  headers: string | null;
  secret_headers: string | null;
  body: string | null;
}

/** Headers the sender sets itself, or that would change how the request is framed or routed. */
const FORBIDDEN_HEADERS = new Set([
  'host',
  'content-length',
  'transfer-encoding',
  'connection',
  'keep-alive',
  'upgrade',
  'expect',
  'te',
  'trailer',
  'proxy-authorization',
  'proxy-connection',
]);
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
const MAX_HEADERS = 20;
const MAX_BODY = 16_000;

const refuse = (field: string, message: string) => new ChannelConfigError(field, message);

function templateOf(field: string, label: string, text: string): TemplatePart[] {
  try {
    return parseTemplate(text);
  } catch (e) {
    if (e instanceof TemplateSyntaxError) throw refuse(field, `${label}: ${e.message}`);
    throw e;
  }
}

function optionalText(fields: Record<string, unknown>, key: string, label: string, max: number): string | null {
  const v = fields[key];
  if (v === undefined || v === null) return null;
  if (typeof v !== 'string') throw refuse(key, `${label} must be text.`);
  const text = v.replace(/\r\n?/g, '\n').trim();
  if (text.length > max) throw refuse(key, `${label} must be at most ${max} characters.`);
  return text === '' ? null : text;
}

interface HeaderTemplate {
  name: string;
  value: TemplatePart[];
}

/** "Name: value" lines; blank lines skipped. */
function headerTemplates(text: string | null, field: string, label: string): HeaderTemplate[] {
  if (!text) return [];
  const out: HeaderTemplate[] = [];
  for (const [i, line] of text.split('\n').entries()) {
    if (line.trim() === '') continue;
    const colon = line.indexOf(':');
    const name = colon > 0 ? line.slice(0, colon).trim() : '';
    if (!TOKEN.test(name)) throw refuse(field, `${label}, line ${i + 1}: write "Name: value".`);
    if (FORBIDDEN_HEADERS.has(name.toLowerCase()))
      throw refuse(field, `${label}, line ${i + 1}: ${name} is set by the sender and cannot be given.`);
    out.push({ name, value: templateOf(field, `${label}, line ${i + 1}`, line.slice(colon + 1).trim()) });
  }
  return out;
}

/** The URL with its scheme and host written out (no variable before the path): the SSRF guard checks that host. */
const FIXED_ORIGIN = /^https?:\/\/[^/?#{}\s]+(?=[/?#]|$)/i;

function isJson(contentType: string | undefined): boolean {
  return contentType === undefined || /^application\/([\w.+-]*\+)?json\b/i.test(contentType.trim());
}

function contentTypeOf(headers: HeaderTemplate[]): string | undefined {
  const h = headers.find((x) => x.name.toLowerCase() === 'content-type');
  return h ? expandTemplate(h.value, {}, ESCAPES.raw) : undefined;
}

export const customHttp: HttpChannel<CustomHttpConfig> = {
  type: 'custom-http',
  label: customHttpForm.label,
  transport: 'http',
  secretFields: secretKeys(customHttpForm),
  // The admin's own receiver: one request per alert, as the webhook channel.
  grouping: 'never',
  minGapMs: () => 0,
  parseConfig(raw) {
    const fields = configObject(raw);
    onlyFields(
      fields,
      customHttpForm.fields.map((f) => f.key),
    );
    const method = fields.method === undefined || fields.method === null || fields.method === '' ? 'POST' : fields.method;
    if (typeof method !== 'string' || !CUSTOM_HTTP_METHODS.includes(method.toUpperCase() as CustomHttpMethod))
      throw refuse('method', 'Method must be POST, PUT, PATCH or GET.');
    const url = optionalText(fields, 'url', 'URL', 2048);
    if (!url) throw refuse('url', 'URL is required.');
    if (/\s/.test(url)) throw refuse('url', 'URL must be one line without spaces.');
    if (!FIXED_ORIGIN.test(url))
      throw refuse('url', 'URL must start with https:// or http:// and a host written out (variables only after it).');
    const urlParts = templateOf('url', 'URL', url);
    try {
      const u = new URL(expandTemplate(urlParts, sampleValues(), ESCAPES.url));
      if (u.username || u.password) throw refuse('url', 'URL must not contain a user name or password; use a secret header.');
    } catch (e) {
      if (e instanceof ChannelConfigError) throw e;
      throw refuse('url', 'URL is not a valid URL once its variables are filled in.');
    }
    const headers = optionalText(fields, 'headers', 'Headers', 4000);
    const secretHeaders = optionalText(fields, 'secret_headers', 'Secret headers', 4000);
    const all = [...headerTemplates(headers, 'headers', 'Headers'), ...headerTemplates(secretHeaders, 'secret_headers', 'Secret headers')];
    if (all.length > MAX_HEADERS) throw refuse('headers', `At most ${MAX_HEADERS} headers.`);
    const body = optionalText(fields, 'body', 'Body', MAX_BODY);
    const upper = method.toUpperCase() as CustomHttpMethod;
    if (upper === 'GET' && body) throw refuse('body', 'A GET request has no body; leave it empty or choose POST, PUT or PATCH.');
    if (body) {
      const parts = templateOf('body', 'Body', body);
      if (isJson(contentTypeOf(all))) {
        try {
          JSON.parse(expandTemplate(parts, sampleValues(), ESCAPES.json));
        } catch {
          throw refuse(
            'body',
            'Body must be JSON once its variables are filled in: put text variables inside quotes, e.g. "{{title}}" (or set a Content-Type header that is not JSON).',
          );
        }
      }
    }
    return { method: upper, url, headers, secret_headers: secretHeaders, body };
  },
  tenantUrls: (c) => [FIXED_ORIGIN.exec(c.url)?.[0] ?? c.url],
  build(alert, config) {
    const values = templateValues(alert);
    const headers: Record<string, string> = { 'user-agent': USER_AGENT };
    const templates = [
      ...headerTemplates(config.headers, 'headers', 'Headers'),
      ...headerTemplates(config.secret_headers, 'secret_headers', 'Secret headers'),
    ];
    for (const h of templates) headers[h.name.toLowerCase()] = expandTemplate(h.value, values, ESCAPES.header);
    const body = config.body ?? '';
    const json = isJson(headers['content-type']);
    if (body && !headers['content-type']) headers['content-type'] = 'application/json';
    return {
      url: expandTemplate(parseTemplate(config.url), values, ESCAPES.url),
      method: config.method,
      headers,
      body: body ? expandTemplate(parseTemplate(body), values, json ? ESCAPES.json : ESCAPES.raw) : '',
    };
  },
};
