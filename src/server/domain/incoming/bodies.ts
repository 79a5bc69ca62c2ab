// From what each tool sends to one shape, pure. The request was validated against the contract
// (openapi/schemas/incoming-alerts.yaml) before; here the words are capped and cleaned, since a
// tool's labels end up in alert messages, feeds and mails.
//
// One incident per (source, key): Alertmanager's and Grafana's `groupKey` (the group the tool
// notifies about as one), the generic body's `key`. Within it each alert is followed by its
// fingerprint, so a re-sent notification updates what is known, never adds an incident.
import { createHash } from 'node:crypto';
import type { IncomingKind } from '../../db/schema/incoming.ts';
import { type AlertLevel, levelOf } from './severity.ts';

export interface IncomingAlert {
  fingerprint: string;
  status: 'firing' | 'resolved';
  title: string;
  level: AlertLevel;
  labels: Record<string, string>;
  annotations: Record<string, string>;
  url: string | null;
}

export interface IncomingBatch {
  key: string;
  /** the tool's word for the whole group: resolved when every alert it sent is */
  status: 'firing' | 'resolved';
  title: string;
  /** false when the tool left alerts out (Alertmanager's truncatedAlerts): only its status may resolve */
  complete: boolean;
  alerts: IncomingAlert[];
}

export interface SeverityRule {
  label: string;
  map: Record<string, AlertLevel>;
  fallback: AlertLevel;
}

type Labels = Record<string, string> | undefined;
interface ToolAlert {
  status: 'firing' | 'resolved';
  labels?: Labels;
  annotations?: Labels;
  fingerprint?: string;
  generatorURL?: string;
}
export interface ToolBody {
  status: 'firing' | 'resolved';
  groupKey: string;
  alerts: ToolAlert[];
  commonLabels?: Labels;
  commonAnnotations?: Labels;
  truncatedAlerts?: number;
}
export interface GenericBody {
  key: string;
  status: 'firing' | 'resolved';
  title: string;
  message?: string;
  severity?: AlertLevel;
  url?: string;
}

const TITLE_MAX = 300;
const LABEL_KEYS_MAX = 50;
const LABEL_VALUE_MAX = 500;
// Control and direction characters would break feeds and reorder what readers see (lib/plain-text.ts).
const UNSAFE = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F\u200E\u200F\u202A-\u202E\u2066-\u2069\uFFFE\uFFFF]/g;

export const clean = (text: string, max: number): string => {
  const t = text.replace(UNSAFE, '').trim();
  return t.length > max ? `${t.slice(0, max - 1)}…` : t;
};

/** A key or fingerprint within its column: a long one keeps its start and a hash of the whole, so two never merge. */
export const keyOf = (text: string, max: number): string => {
  const t = text.replace(UNSAFE, '').trim();
  if (t.length <= max) return t;
  return `${t.slice(0, max - 17)}#${createHash('sha256').update(t).digest('hex').slice(0, 16)}`;
};

function cleanLabels(l: Labels): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(l ?? {}).slice(0, LABEL_KEYS_MAX)) out[clean(k, 100)] = clean(String(v), LABEL_VALUE_MAX);
  return out;
}

/** Alertmanager's fingerprint is a hash of the labels: the same when a tool leaves it out. */
function labelsFingerprint(labels: Record<string, string>): string {
  const text = Object.keys(labels)
    .sort()
    .map((k) => `${k}=${labels[k]}`)
    .join('\u0000');
  return createHash('sha256').update(text).digest('hex').slice(0, 16);
}

/** "HighLatency: p99 above 1 s" from the alert's name and summary, whichever it has. */
function titleOf(labels: Record<string, string>, annotations: Record<string, string>, fallback: string): string {
  const name = labels.alertname;
  const summary = annotations.summary ?? annotations.title;
  const t = name && summary ? `${name}: ${summary}` : (name ?? summary ?? fallback);
  return clean(t, TITLE_MAX) || fallback;
}

function fromTool(body: ToolBody, rule: SeverityRule, toolName: string): IncomingBatch {
  const alerts = body.alerts.map((a): IncomingAlert => {
    const labels = cleanLabels(a.labels);
    const annotations = cleanLabels(a.annotations);
    return {
      fingerprint: keyOf(a.fingerprint ?? '', 200) || labelsFingerprint(labels),
      status: a.status,
      title: titleOf(labels, annotations, `${toolName} alert`),
      level: levelOf(labels[rule.label], rule.map, rule.fallback),
      labels,
      annotations,
      url: a.generatorURL ? clean(a.generatorURL, 2048) : null,
    };
  });
  const common = cleanLabels(body.commonLabels);
  const commonAnnotations = cleanLabels(body.commonAnnotations);
  // The group's own words when its alerts share them; else the first alert's.
  const title = common.alertname ? titleOf(common, commonAnnotations, `${toolName} alert`) : (alerts[0]?.title ?? `${toolName} alert`);
  return {
    key: keyOf(body.groupKey, 300) || 'default',
    status: body.status,
    title,
    complete: !body.truncatedAlerts,
    alerts,
  };
}

function fromGeneric(body: GenericBody, rule: SeverityRule): IncomingBatch {
  const key = keyOf(body.key, 300);
  const annotations: Record<string, string> = body.message ? { message: clean(body.message, 4000) } : {};
  return {
    key,
    status: body.status,
    title: clean(body.title, TITLE_MAX),
    complete: true,
    alerts: [
      {
        fingerprint: labelsFingerprint({ key }),
        status: body.status,
        title: clean(body.title, TITLE_MAX),
        level: body.severity ?? rule.fallback,
        labels: {},
        annotations,
        url: body.url ?? null,
      },
    ],
  };
}

export function batchOf(kind: IncomingKind, body: unknown, rule: SeverityRule): IncomingBatch {
  switch (kind) {
    case 'alertmanager':
      return fromTool(body as ToolBody, rule, 'Alertmanager');
    case 'grafana':
      return fromTool(body as ToolBody, rule, 'Grafana');
    case 'generic':
      return fromGeneric(body as GenericBody, rule);
  }
}
