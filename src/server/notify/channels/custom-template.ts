// The custom HTTP channel's templates: text with `{{name}}` variables (spaces inside the braces
// allowed), nothing else. Written here rather than taken from a Mustache library because a
// logic-less library still renders an unknown name as empty text and has no per-place escaping:
// an admin's typo must be refused at save with the field named, and a value must be escaped
// for where it lands (JSON string, URL, header). A `}}` alone is text (JSON bodies end in it).
import { TEMPLATE_VARIABLES } from '../../../lib/channel-forms/custom-http.ts';
import { EVENT_LABELS, monitorsOf } from './alert-text.ts';
import type { Alert } from './channel.ts';

export type TemplatePart = { text: string } | { variable: string };

const KNOWN = new Set(TEMPLATE_VARIABLES.map((v) => v.name));
const NAME = /^[a-z_]+(?:\.[a-z_]+)?$/;

/** Why a template cannot be used, in the form's words. */
export class TemplateSyntaxError extends Error {}

/** The template's parts, or a TemplateSyntaxError naming the first problem. */
export function parseTemplate(template: string): TemplatePart[] {
  const parts: TemplatePart[] = [];
  let at = 0;
  while (at < template.length) {
    const open = template.indexOf('{{', at);
    if (open < 0) {
      parts.push({ text: template.slice(at) });
      break;
    }
    if (open > at) parts.push({ text: template.slice(at, open) });
    const close = template.indexOf('}}', open + 2);
    const nextOpen = template.indexOf('{{', open + 2);
    if (close < 0 || (nextOpen >= 0 && nextOpen < close))
      throw new TemplateSyntaxError(`The {{ at character ${open + 1} has no closing }}.`);
    const name = template.slice(open + 2, close).trim();
    if (!NAME.test(name)) throw new TemplateSyntaxError(`{{${template.slice(open + 2, close)}}} is not a variable name.`);
    if (!KNOWN.has(name)) throw new TemplateSyntaxError(`Unknown variable {{${name}}}; see the list of variables.`);
    parts.push({ variable: name });
    at = close + 2;
  }
  return parts;
}

/** The template filled in, each value passed through `escapeValue` for where it lands. */
export function expandTemplate(
  parts: readonly TemplatePart[],
  values: Readonly<Record<string, string>>,
  escapeValue: (v: string) => string,
): string {
  return parts.map((p) => ('text' in p ? p.text : escapeValue(values[p.variable] ?? ''))).join('');
}

/** Escapes for each place a value may land. */
export const ESCAPES = {
  /** Inside a JSON string (or as a bare number: digits need no escaping) */
  json: (v: string) => JSON.stringify(v).slice(1, -1),
  url: (v: string) => encodeURIComponent(v),
  /** A header value is one line: line breaks would start a new header */
  header: (v: string) => v.replace(/[\r\n]+/g, ' '),
  raw: (v: string) => v,
} as const;

const iso = (ms: number) => new Date(ms).toISOString();

/** Every variable's value for one alert; a value the alert lacks (no monitor, no incident) is empty. */
export function templateValues(alert: Alert): Record<string, string> {
  const monitors = monitorsOf(alert);
  const first = monitors[0];
  const m = alert.maintenance;
  return {
    title: alert.title,
    message: alert.message,
    severity: alert.severity,
    event: alert.event,
    event_label: EVENT_LABELS[alert.event],
    occurred_at: iso(alert.occurredAt),
    delivery_id: alert.deliveryId,
    'company.name': alert.company.name,
    'company.subdomain': alert.company.subdomain,
    'monitor.id': first?.id ?? '',
    'monitor.name': first?.name ?? '',
    'monitor.target': first?.target ?? '',
    monitors: monitors.map((x) => x.name).join(', '),
    monitor_count: String(monitors.length),
    'incident.id': alert.incident?.id ?? '',
    'incident.title': alert.incident?.title ?? '',
    'incident.status': alert.incident?.status ?? '',
    'incident.impact': alert.incident?.impact ?? '',
    'maintenance.id': m?.id ?? '',
    'maintenance.title': m?.title ?? '',
    'maintenance.starts_at': m ? iso(m.starts_at) : '',
    'maintenance.ends_at': m ? iso(m.ends_at) : '',
    console_url: alert.consoleUrl,
    status_page_url: alert.statusPageUrl,
    acknowledge_url: alert.acknowledgeUrl ?? '',
  };
}

/**
 * Values for checking a template before it is saved: text with the characters that break JSON
 * or a header (quotes, backslashes, line breaks), so a variable left outside a JSON string or a
 * missing escape shows at save time rather than at the first incident.
 */
export function sampleValues(): Record<string, string> {
  const out: Record<string, string> = {};
  for (const v of TEMPLATE_VARIABLES) out[v.name] = `sample "${v.name}" \\ value\nline 2`;
  out.monitor_count = '2';
  return out;
}
